import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';

import { queryClient } from '../../web/src/api/query-client';
import { preloadRoutes } from '../../web/src/app-routes';
import { installBrowserStubs, resetViewport } from './support/browser-stubs';
import { cancelPendingTimers, trackPendingTimers } from './support/pending-timers';
import { failOnReactWarnings, watchReactWarnings } from './support/react-warnings';

// The files of a worker share one document and one module cache (vitest.config.ts): each file
// starts from the stubs, and each test from the empty cache, storage and viewport, reset below.
installBrowserStubs();
// A search reads the server once typing pauses (300 ms) and a loaded machine may take seconds to
// draw the reply: findBy* and waitFor wait for what the user would see, up to this long.
configure({ asyncUtilTimeout: 10_000 });
trackPendingTimers();
watchReactWarnings();
resetViewport();

// Pages are lazily loaded chunks in the app; fetched here once, every route renders at once, as
// it did when they were imported statically (test/web/lazy-page.test.tsx covers the loading state).
beforeAll(() => preloadRoutes(), 120_000);
// Testing Library marks the environment as act's in hooks it registers when first imported: with a
// shared module cache only the worker's first file would get them, so every file marks it here.
beforeAll(() => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
});

afterEach(() => {
  cleanup();
  // What the unmounted components left to fire (a flash's focus) would run after the environment's end.
  cancelPendingTimers();
  // Each test starts with nothing read: the app's one query cache would carry a test's data to the next.
  queryClient.clear();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  vi.useRealTimers();
  localStorage.clear();
  for (const cookie of document.cookie.split(';')) {
    const name = cookie.split('=')[0]?.trim();
    // biome-ignore lint/suspicious/noDocumentCookie: jsdom has no Cookie Store API.
    if (name) document.cookie = `${name}=; Path=/; Max-Age=0`;
  }
  resetViewport();
  // Last, once the test's components are unmounted (their clean-up may update state too).
  failOnReactWarnings();
});

// What a file drew outside the containers that cleanup() unmounts (a root of its own, a portal)
// would otherwise be found by the next file's queries over document.body.
afterAll(() => {
  document.body.replaceChildren();
  // What a file's own hooks drew or unmounted outside its tests.
  failOnReactWarnings();
});
