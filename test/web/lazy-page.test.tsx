import { act, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { lazyPage } from '../../web/src/layout/lazy-page';

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((resolvePromise) => {
    resolve = resolvePromise;
  });
  return { promise, resolve };
}

function Greeting({ name }: { readonly name: string }) {
  return <h1>Bonjour {name}</h1>;
}

describe('a lazily loaded page', () => {
  it("says 'Chargement…' in a status until its code arrives, then shows the page", async () => {
    // Arrange
    const code = deferred<typeof Greeting>();
    const Page = lazyPage(() => code.promise);

    // Act (awaited: React retries a suspended render only inside an awaited act in tests)
    await act(async () => {
      render(<Page name="Maître Durand" />);
    });

    // Assert
    expect(screen.getByRole('status').textContent).toContain('Chargement…');
    await act(async () => code.resolve(Greeting));
    expect(await screen.findByRole('heading', { name: 'Bonjour Maître Durand' })).toBeVisible();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('shows at once, without the loading state, once fetched ahead', async () => {
    // Arrange
    const load = vi.fn(async () => Greeting);
    const Page = lazyPage(load);
    await Page.preload();

    // Act
    render(<Page name="Maître Durand" />);

    // Assert
    expect(screen.getByRole('heading', { name: 'Bonjour Maître Durand' })).toBeVisible();
    expect(screen.queryByRole('status')).toBeNull();
    expect(load).toHaveBeenCalledTimes(1);
  });
});
