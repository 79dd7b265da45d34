import { cleanup } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';

import { queryClient } from '../../web/src/api/query-client';
import { preloadRoutes } from '../../web/src/app-routes';
import { installBrowserStubs, resetViewport } from './support/browser-stubs';

installBrowserStubs();
resetViewport();

// Pages are lazily loaded chunks in the app; fetched here once, every route renders at once, as
// it did when they were imported statically (test/web/lazy-page.test.tsx covers the loading state).
beforeAll(() => preloadRoutes(), 120_000);

afterEach(() => {
  cleanup();
  // Each test starts with nothing read: the app's one query cache would carry a test's data to the next.
  queryClient.clear();
  vi.restoreAllMocks();
  vi.useRealTimers();
  localStorage.clear();
  for (const cookie of document.cookie.split(';')) {
    const name = cookie.split('=')[0]?.trim();
    // biome-ignore lint/suspicious/noDocumentCookie: jsdom has no Cookie Store API.
    if (name) document.cookie = `${name}=; Path=/; Max-Age=0`;
  }
  resetViewport();
});

// A flash shown in a file's last test moves the focus to it 500 ms later (Cloudscape's Flashbar
// debounce, FOCUS_DEBOUNCE_DELAY): the file's environment stays up until that call has run, else it
// lands after the teardown ('CSS is not defined') and fails the whole run as an unhandled error.
afterAll(() => new Promise<void>((resolve) => setTimeout(resolve, 600)));
