import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { act, fireEvent, render, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import {
  NOTIFICATION_LIFETIME_MS,
  NotificationsProvider,
  useNotifications,
} from '../../web/src/notifications/notifications-context';
import { NotificationsFlashbar } from '../../web/src/notifications/notifications-flashbar';

function Raise({ type, text }: { readonly type: 'success' | 'error'; readonly text: string }) {
  const notifications = useNotifications();
  return (
    <button type="button" onClick={() => notifications[type](text)}>
      {`raise ${text}`}
    </button>
  );
}

function renderToasts() {
  const result = render(
    <NotificationsProvider>
      <Raise type="success" text="Automatisation créée" />
      <Raise type="error" text="Erreur lors du chargement des données" />
      <NotificationsFlashbar />
    </NotificationsProvider>,
  );
  const flashbar = () => createWrapper(result.container).findFlashbar();
  const contents = () =>
    (flashbar()?.findItems() ?? []).map((item) => item.findContent()?.getElement().textContent);
  return { ...result, flashbar, contents };
}

describe('toasts', () => {
  it('shows a toast and removes it by itself after its lifetime', () => {
    // Arrange
    vi.useFakeTimers();
    const toasts = renderToasts();

    // Act
    fireEvent.click(toasts.getByText('raise Automatisation créée'));

    // Assert
    expect(toasts.contents()).toEqual(['Automatisation créée']);
    act(() => vi.advanceTimersByTime(NOTIFICATION_LIFETIME_MS.success - 1));
    expect(toasts.contents()).toEqual(['Automatisation créée']);
    act(() => vi.advanceTimersByTime(1));
    expect(toasts.contents()).toEqual([]);
  });

  it('can be dismissed by the user', async () => {
    // Arrange
    const toasts = renderToasts();
    fireEvent.click(toasts.getByText('raise Erreur lors du chargement des données'));

    // Act
    const dismiss = toasts.flashbar()?.findItemsByType('error')[0]?.findDismissButton();
    fireEvent.click(dismiss?.getElement() as HTMLElement);

    // Assert
    await waitFor(() => expect(toasts.contents()).toEqual([]));
  });

  it('labels the dismiss button in French', () => {
    // Arrange
    const toasts = renderToasts();

    // Act
    fireEvent.click(toasts.getByText('raise Automatisation créée'));

    // Assert
    const dismiss = toasts.flashbar()?.findItems()[0]?.findDismissButton();
    expect(dismiss?.getElement().getAttribute('aria-label')).toBe('Fermer la notification');
  });
});
