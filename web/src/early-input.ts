/**
 * A pre-rendered page (/login) can be typed in before its code has run: on a slow phone the card
 * shows a second or more before the application takes it over. What was typed then stays in the
 * fields but the application's state does not know it, and a form sent or a button pressed then
 * is held back by web/public/start-after-paint.js. Once the application has taken the page over,
 * this hands them to it: each field typed in is given to its component as if typed now, then each
 * form held back is sent and each button held back pressed.
 */
export function takeOverEarlyInput(root: HTMLElement): void {
  // The root mounts before a lazily loaded page inside it is hydrated: until the card's own
  // controls carry React's handlers, a press would reach neither React nor the early listeners.
  whenHydrated(root, () => handOver(root));
}

/** The longest wait for the page's controls, after which what was held is handed over anyway. */
const HYDRATION_WAIT_FRAMES = 600;

function whenHydrated(root: HTMLElement, then: () => void, frames = 0): void {
  const control = root.querySelector('button, input');
  const hydrated = !control || Object.keys(control).some((key) => key.startsWith('__reactProps$'));
  if (hydrated || frames >= HYDRATION_WAIT_FRAMES) then();
  else requestAnimationFrame(() => whenHydrated(root, then, frames + 1));
}

function handOver(root: HTMLElement): void {
  document.documentElement.dataset.hydrated = '';
  const setDomValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
  for (const input of root.querySelectorAll('input')) {
    const typed = input.value;
    if (typed === input.defaultValue || !setDomValue) continue;
    // Through the element's own setter first, which React watches: it then sees the typed value
    // as a change, and its onChange runs.
    input.value = input.defaultValue;
    setDomValue.call(input, typed);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  }
  const held = [...root.querySelectorAll<HTMLFormElement>('form[data-send-when-ready]')];
  const pressed = [...root.querySelectorAll<HTMLButtonElement>('button[data-click-when-ready]')];
  if (held.length === 0 && pressed.length === 0) return;
  // After the render that the typed values cause, so that the form sends them.
  setTimeout(() => {
    for (const form of held) {
      delete form.dataset.sendWhenReady;
      form.requestSubmit();
    }
    for (const button of pressed) {
      delete button.dataset.clickWhenReady;
      button.click();
    }
  }, 0);
}
