/**
 * jsdom has no layout: the browser APIs Cloudscape and the app use to follow the viewport are
 * played here. `matchMedia` answers from `window.innerWidth`, which `resizeViewport` changes.
 */
type Listener = (event: MediaQueryListEvent) => void;

interface MediaQueryState {
  readonly query: string;
  matches: boolean;
  readonly listeners: Set<Listener>;
}

const mediaQueries = new Set<MediaQueryState>();

export const DESKTOP_WIDTH = 1280;

function evaluateMediaQuery(query: string): boolean {
  // Tests run without animations, as for a user who asks for reduced motion.
  if (query.includes('prefers-reduced-motion: reduce')) return true;
  const width = window.innerWidth;
  return query.split(',').some((part) => {
    const max = /max-width:\s*([\d.]+)px/.exec(part);
    const min = /min-width:\s*([\d.]+)px/.exec(part);
    if (!max && !min) return false;
    return (!max || width <= Number(max[1])) && (!min || width >= Number(min[1]));
  });
}

function matchMedia(query: string): MediaQueryList {
  const state: MediaQueryState = { query, matches: evaluateMediaQuery(query), listeners: new Set() };
  mediaQueries.add(state);
  return {
    get matches() {
      return evaluateMediaQuery(query);
    },
    media: query,
    onchange: null,
    addEventListener: (_type: string, listener: Listener) => state.listeners.add(listener),
    removeEventListener: (_type: string, listener: Listener) => state.listeners.delete(listener),
    addListener: (listener: Listener) => state.listeners.add(listener),
    removeListener: (listener: Listener) => state.listeners.delete(listener),
    dispatchEvent: () => true,
  } as unknown as MediaQueryList;
}

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}

/**
 * jsdom loads no web fonts: a font set whose fonts are loaded (web/public/start-after-paint.js waits
 * for `ready`).
 */
function loadedFontSet(): FontFaceSet {
  return Object.assign(new EventTarget(), {
    ready: Promise.resolve(),
    status: 'loaded',
  }) as unknown as FontFaceSet;
}

/**
 * Installs `matchMedia`, the font set and, when missing, an inert `ResizeObserver`: again before
 * each file, as the files of a worker share one document.
 */
export function installBrowserStubs(): void {
  Object.defineProperty(window, 'matchMedia', { configurable: true, value: matchMedia });
  Object.defineProperty(document, 'fonts', { configurable: true, value: loadedFontSet() });
  // jsdom has no CSS namespace; Cloudscape's Flashbar calls CSS.escape when it moves the focus to
  // a new flash, on a debounce that may fire after a test ended.
  if (!('CSS' in globalThis)) {
    Object.defineProperty(globalThis, 'CSS', { configurable: true, value: { escape: escapeCssIdentifier } });
  }
  if (!('ResizeObserver' in globalThis)) {
    Object.defineProperty(globalThis, 'ResizeObserver', { configurable: true, value: ResizeObserverStub });
  }
}

/** CSS.escape as CSSOM defines it, for the identifiers tests use (ids, names). */
function escapeCssIdentifier(value: string): string {
  return value
    .replace(/[^\w-]/g, (character) => `\\${character}`)
    .replace(/^(-?)(\d)/, (_, dash: string, digit: string) => `${dash}\\3${digit} `);
}

/** Changes the viewport width and tells the media queries whose answer changed. */
export function resizeViewport(width: number): void {
  Object.defineProperty(window, 'innerWidth', { configurable: true, writable: true, value: width });
  for (const state of mediaQueries) {
    const matches = evaluateMediaQuery(state.query);
    if (matches === state.matches) continue;
    state.matches = matches;
    for (const listener of state.listeners) listener({ matches, media: state.query } as MediaQueryListEvent);
  }
  window.dispatchEvent(new Event('resize'));
}

/** Forgets the media queries of the previous test and goes back to a desktop viewport. */
export function resetViewport(): void {
  mediaQueries.clear();
  resizeViewport(DESKTOP_WIDTH);
}
