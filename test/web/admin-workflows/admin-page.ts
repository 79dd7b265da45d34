import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { screen, within } from '@testing-library/react';

import { renderApp } from '../support/render-app';
import { storeSessionOf } from '../support/sessions';

type App = ReturnType<typeof renderApp>;

/** The admin's automations screen, opened by a signed-in admin. */
export function openAdminWorkflows(path: '/admin/workflows' | '/admin/workflows-new' = '/admin/workflows') {
  storeSessionOf('admin');
  return renderApp(path);
}

/** Opens the create dialog from the page header's 'Nouvelle Automatisation'. */
export async function openCreateDialog(app: App) {
  await screen.findByRole('heading', { name: 'Gestion des Automatisations' });
  const [headerButton] = await screen.findAllByRole('button', { name: 'Nouvelle Automatisation' });
  await app.user.click(headerButton!);
  return screen.findByRole('dialog');
}

/** Picks one entry of a card's 'Actions' menu. */
export async function cardAction(app: App, workflowName: string, item: string) {
  await app.user.click(await screen.findByRole('button', { name: `Actions de ${workflowName}` }));
  await app.user.click(await screen.findByRole('menuitem', { name: item }));
}

/** The primary (or named) button of the open dialog. */
export function dialogButton(name: string): HTMLButtonElement {
  return within(screen.getByRole('dialog')).getByRole('button', { name }) as HTMLButtonElement;
}

/** The text of every toast on screen. */
export function toasts(): string[] {
  return (
    createWrapper(document.body)
      .findFlashbar()
      ?.findItems()
      .map((item) => item.findContent()?.getElement().textContent ?? '') ?? []
  );
}

/** The titles of the cards on screen, in order. */
export function cardTitles(): string[] {
  const cards = createWrapper(document.body).findCards();
  return cards?.findItems().map((item) => item.findCardHeader()?.getElement().textContent ?? '') ?? [];
}

/** The card titled `name`. */
export function cardOf(name: string): HTMLElement {
  const card = createWrapper(document.body)
    .findCards()
    ?.findItems()
    .find((item) => item.findCardHeader()?.getElement().textContent === name);
  if (!card) throw new Error(`Aucune carte « ${name} »`);
  return card.getElement();
}
