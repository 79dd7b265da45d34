import { cleanup } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

import { installBrowserStubs, resetViewport } from './support/browser-stubs';

installBrowserStubs();
resetViewport();

afterEach(() => {
  cleanup();
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
