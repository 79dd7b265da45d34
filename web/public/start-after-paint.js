// The start of the pre-rendered pages (web/build/prerender.ts): the page already shows its screen,
// so the application's code is fetched and run once that screen is painted in its own fonts. On a
// phone and a poor network the styles and fonts of the card then come first instead of sharing
// the bandwidth with 180 kB of code, and the second the phone spends hydrating comes after the
// card is readable instead of holding its final paint back. The code is the same entry as
// index.html's, with the page's markup for it to take over (main.tsx).
// A page with nothing but text and links (data-start="on-use": the landing page, /discover, /privacy,
// /payment-success) is complete as painted for a visitor who is not signed in: its links are links
// to pre-rendered pages. Its code runs when it has something to change: at once for a signed-in
// visitor (whose page differs), or when he signs in in another tab or first uses the page (a key,
// a press, a focus), instead of a phone spending a second on it while the visitor reads.
// Until the application has taken the page over, a form sent is held back and a button pressed is
// remembered; the application sends or presses them then (web/src/early-input.ts) instead of the
// browser reloading the page with the form, or the press being lost. They are remembered here, not
// marked on the elements: the application takes the markup over by hydrating it, and React reports
// any attribute it did not render itself as a mismatch with the pre-rendered page.
const pressed = new Set();
window.heldForms = new Set();
document.addEventListener(
  'submit',
  (event) => {
    if ('hydrated' in document.documentElement.dataset) return;
    event.preventDefault();
    window.heldForms.add(event.target);
  },
  true,
);
// A button pressed then (other than one sending a form: that is the submit above) does nothing
// until the application answers it: it is remembered, and pressed again below.
document.addEventListener(
  'click',
  (event) => {
    if ('hydrated' in document.documentElement.dataset) return;
    const button = event.target instanceof Element ? event.target.closest('button') : null;
    if (!button || button.type === 'submit') return;
    event.preventDefault();
    pressed.add(button);
  },
  true,
);
// Pressed again once the application has taken the card over and the button carries its handler
// (a lazily loaded page hydrates after the root); given up after about 30 s.
const pressAgain = (tries) => {
  const onPage = [...pressed].filter((button) => button.isConnected);
  const ready =
    'hydrated' in document.documentElement.dataset &&
    onPage.every((button) => Object.keys(button).some((key) => key.startsWith('__reactProps$')));
  if (!ready && tries > 0) {
    setTimeout(() => pressAgain(tries - 1), 50);
    return;
  }
  pressed.clear();
  if (ready) for (const button of onPage) button.click();
};
const afterPaint = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
const { entry, start, sessionKey } = document.querySelector('script[data-entry]').dataset;
const painted = afterPaint()
  .then(() => document.fonts.ready)
  .then(afterPaint);
let started = false;
const startApplication = () => {
  if (started) return;
  started = true;
  pressAgain(600);
  painted.then(() => {
    const script = document.createElement('script');
    script.type = 'module';
    script.crossOrigin = '';
    script.src = entry;
    document.head.append(script);
  });
};
const signedIn = () => {
  try {
    return localStorage.getItem(sessionKey) !== null;
  } catch {
    return false;
  }
};
if (start === 'on-use' && !signedIn()) {
  const uses = ['keydown', 'pointerdown', 'focusin'];
  const onUse = () => {
    for (const use of uses) document.removeEventListener(use, onUse, true);
    startApplication();
  };
  for (const use of uses) document.addEventListener(use, onUse, true);
  window.addEventListener('storage', (event) => {
    if (event.key === sessionKey && event.newValue !== null) startApplication();
  });
} else {
  startApplication();
}
