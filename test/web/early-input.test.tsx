import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { useEffect, useState } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

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
 * Runs web/public/start-after-paint.js as the pre-rendered page does, before any application code.
 * Returns what undoes it (its listeners on the document, its scripts): the next files of the worker
 * share this document.
 */
function startAfterPaint(): () => void {
  const entry = document.createElement('script');
  entry.dataset.entry = '/assets/none.js';
  document.head.append(entry);
  const source = readFileSync(resolve('web/public/start-after-paint.js'), 'utf8');
  const listen = vi.spyOn(document, 'addEventListener');
  new Function(source)();
  const listeners = listen.mock.calls.map(([type, listener, options]) => ({ type, listener, options }));
  listen.mockRestore();
  return () => {
    for (const { type, listener, options } of listeners)
      document.removeEventListener(type, listener, options);
    for (const script of document.head.querySelectorAll(
      'script[data-entry], script[src="/assets/none.js"]',
    )) {
      script.remove();
    }
  };
}

describe('what a visitor does on the pre-rendered /login before its code has run', () => {
  let container: HTMLDivElement;
  let root: Root | undefined;
  let undoStart: () => void;

  beforeAll(() => {
    delete document.documentElement.dataset.hydrated;
    undoStart = startAfterPaint();
    container = document.createElement('div');
    container.innerHTML = renderToString(<Card />);
    document.body.append(container);
  });

  afterAll(() => {
    act(() => root?.unmount());
    container?.remove();
    undoStart();
  });

  it('is handed to the application once it takes the page over: typed text, a pressed button, a sent form', async () => {
    // Arrange: typed, pressed and sent while the page is still the static markup
    const field = screen.getByLabelText('Adresse email') as HTMLInputElement;
    field.value = 'cabinet@example.fr';
    fireEvent.click(screen.getByRole('button', { name: 'Obtenir votre licence' }));
    fireEvent.submit(field.form as HTMLFormElement);
    expect(screen.queryByText("Formulaire d'achat ouvert")).toBeNull();

    // Act
    await act(async () => {
      root = hydrateRoot(container, <Card onMounted={() => takeOverEarlyInput(container)} />);
    });

    // Assert
    await waitFor(() => expect(screen.getByText("Formulaire d'achat ouvert")).toBeVisible());
    expect(screen.getByText('Envoyé pour cabinet@example.fr')).toBeVisible();
    expect(container.querySelector('[data-click-when-ready], [data-send-when-ready]')).toBeNull();
  });

  it('leaves a button alone once the application has the page', () => {
    // Arrange
    const button = screen.getByRole('button', { name: 'Obtenir votre licence' });

    // Act
    fireEvent.click(button);

    // Assert
    expect(button.dataset.clickWhenReady).toBeUndefined();
  });
});
