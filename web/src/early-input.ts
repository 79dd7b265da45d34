declare global {
  interface Window {
    /** The forms sent before the application took the page over, held back by web/public/start-after-paint.js. */
    heldForms?: Set<HTMLFormElement>;
  }
}

/**
 * A pre-rendered page (/login) can be typed in before its code has run: on a slow phone the card
 * shows a second or more before the application takes it over. What was typed then stays in the
 * fields but the application's state does not know it, and a form sent then is held back by
 * web/public/start-after-paint.js. Once the application has taken the page over, this hands both
 * to it: each field typed in is given to its component as if typed now, then each form held back
 * is sent.
 */
export function takeOverEarlyInput(root: HTMLElement): void {
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
  const held = [...(window.heldForms ?? [])].filter((form) => root.contains(form));
  if (held.length === 0) return;
  for (const form of held) window.heldForms?.delete(form);
  // After the render that the typed values cause, so that the form sends them.
  setTimeout(() => {
    for (const form of held) form.requestSubmit();
  }, 0);
}
