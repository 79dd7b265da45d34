import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { useEffect, useState } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

import { takeOverEarlyInput } from '../../web/src/early-input';

/** A pre-rendered card as /login's: a field, a button opening something, a form sending it. */
function Card({ onMounted }: { readonly onMounted?: () => void }) {
  const [email, setEmail] = useState('');
  const [opened, setOpened] = useState(false);
  const [sent, setSent] = useState<string | null>(null);
  useEffect(() => onMounted?.(), [onMounted]);
  return (
    <div>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          setSent(email);
        }}
      >
        <label>
          Adresse email
          <input value={email} onChange={(event) => setEmail(event.target.value)} />
        </label>
        <button type="submit">Envoyer</button>
      </form>
      <button type="button" onClick={() => setOpened(true)}>
        Obtenir votre licence
      </button>
      {opened ? <p>Formulaire d'achat ouvert</p> : null}
      {sent !== null ? <p>Envoyé pour {sent}</p> : null}
    </div>
  );
}

/**
 * Runs web/public/start-after-paint.js as the pre-rendered page does, before any application code,
 * its script carrying `dataset` beside the entry. Returns what undoes it (its listeners, its
 * scripts): the next files of the worker share this document.
 */
function startAfterPaint(dataset: Record<string, string> = {}): () => void {
  const entry = document.createElement('script');
  Object.assign(entry.dataset, { entry: '/assets/none.js', ...dataset });
  document.head.append(entry);
  const source = readFileSync(resolve('web/public/start-after-paint.js'), 'utf8');
  const listenOnDocument = vi.spyOn(document, 'addEventListener');
  const listenOnWindow = vi.spyOn(window, 'addEventListener');
  new Function(source)();
  const listeners = [listenOnDocument, listenOnWindow].flatMap((listen, index) =>
    listen.mock.calls.map(([type, listener, options]) => ({
      target: index === 0 ? document : window,
      type,
      listener,
      options,
    })),
  );
  listenOnDocument.mockRestore();
  listenOnWindow.mockRestore();
  return () => {
    for (const { target, type, listener, options } of listeners)
      target.removeEventListener(type, listener, options);
    for (const script of document.head.querySelectorAll(
      'script[data-entry], script[src="/assets/none.js"]',
    )) {
      script.remove();
    }
    delete window.heldForms;
  };
}

/** The application's entry, once the start script has asked for it. */
const entryScript = () => document.head.querySelector('script[src="/assets/none.js"]');

/** Resolves once the page is painted in its fonts, as the start script waits before the entry. */
const painted = async () => {
  const afterPaint = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  await afterPaint();
  await document.fonts.ready;
  await afterPaint();
  await afterPaint();
};

describe('what a visitor does on the pre-rendered /login before its code has run', () => {
  let container: HTMLDivElement;
  let root: Root | undefined;
  let undoStart: () => void;
  /** The markup as the browser holds it once the pre-rendered page is loaded. */
  let prerendered = '';

  beforeAll(() => {
    delete document.documentElement.dataset.hydrated;
    undoStart = startAfterPaint();
    container = document.createElement('div');
    container.innerHTML = renderToString(<Card />);
    prerendered = container.innerHTML;
    document.body.append(container);
  });

  afterAll(async () => {
    act(() => root?.unmount());
    container?.remove();
    // Its entry is asked for once the page is painted: undone after, not before.
    await painted();
    undoStart();
  });

  it('is handed to the application once it takes the page over: typed text, a pressed button, a sent form', async () => {
    // Arrange: typed, pressed and sent while the page is still the static markup
    const field = screen.getByLabelText('Adresse email') as HTMLInputElement;
    field.value = 'cabinet@example.fr';
    fireEvent.click(screen.getByRole('button', { name: 'Obtenir votre licence' }));
    fireEvent.submit(field.form as HTMLFormElement);
    expect(screen.queryByText("Formulaire d'achat ouvert")).toBeNull();
    // Held without a mark on the markup, which React checks when it takes the page over.
    expect(container.innerHTML).toBe(prerendered);

    // Act
    await act(async () => {
      root = hydrateRoot(container, <Card onMounted={() => takeOverEarlyInput(container)} />);
    });

    // Assert
    await waitFor(() => expect(screen.getByText("Formulaire d'achat ouvert")).toBeVisible());
    expect(screen.getByText('Envoyé pour cabinet@example.fr')).toBeVisible();
    expect(window.heldForms?.size).toBe(0);
  });

  it('leaves a button alone once the application has the page', () => {
    // Arrange
    const button = screen.getByRole('button', { name: 'Obtenir votre licence' });

    // Act
    const notHeldBack = fireEvent.click(button);

    // Assert
    expect(notHeldBack).toBe(true);
  });
});

describe('a pre-rendered page of text and links (data-start="on-use")', () => {
  let undoStart: (() => void) | undefined;

  afterEach(() => {
    undoStart?.();
    undoStart = undefined;
    localStorage.clear();
  });

  it('asks for no application code while a visitor who is not signed in reads it', async () => {
    // Arrange
    undoStart = startAfterPaint({ start: 'on-use', sessionKey: 'session_user' });

    // Act
    await painted();

    // Assert
    expect(entryScript()).toBeNull();
  });

  it('asks for it at the first key, press or focus', async () => {
    for (const use of [
      () => fireEvent.keyDown(document.body, { key: 'Tab' }),
      () => fireEvent.pointerDown(document.body),
      () => fireEvent.focusIn(document.body),
    ]) {
      undoStart = startAfterPaint({ start: 'on-use', sessionKey: 'session_user' });
      await painted();
      expect(entryScript()).toBeNull();

      use();

      await waitFor(() => expect(entryScript()).not.toBeNull());
      undoStart();
      undoStart = undefined;
    }
  });

  it('asks for it at once for a signed-in visitor, whose page differs', async () => {
    // Arrange
    localStorage.setItem('session_user', '{"role":"lawyer"}');

    // Act
    undoStart = startAfterPaint({ start: 'on-use', sessionKey: 'session_user' });

    // Assert
    await waitFor(() => expect(entryScript()).not.toBeNull());
  });

  it('asks for it when the visitor signs in in another tab', async () => {
    // Arrange
    undoStart = startAfterPaint({ start: 'on-use', sessionKey: 'session_user' });
    await painted();
    window.dispatchEvent(new StorageEvent('storage', { key: 'other', newValue: '1' }));
    await painted();
    expect(entryScript()).toBeNull();

    // Act
    window.dispatchEvent(new StorageEvent('storage', { key: 'session_user', newValue: '{"role":"lawyer"}' }));

    // Assert
    await waitFor(() => expect(entryScript()).not.toBeNull());
  });
});
