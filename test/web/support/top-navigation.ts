import type { UserEvent } from '@testing-library/user-event';

import type { renderApp } from './render-app';

/**
 * jsdom has no layout, so Cloudscape's top navigation puts every utility in its overflow menu:
 * opens it and returns the names of the utilities it holds.
 */
export async function openTopNavigationMenu(
  app: ReturnType<typeof renderApp>,
  user: UserEvent,
): Promise<string[]> {
  const trigger = app.wrapper.findTopNavigation()?.findOverflowMenuButton();
  if (!trigger) throw new Error("Le menu de débordement de la barre du haut n'est pas affiché");
  await user.click(trigger.getElement());
  const menu = app.wrapper.findTopNavigation()?.findOverflowMenu()?.getElement();
  if (!menu) throw new Error("Le menu de débordement de la barre du haut ne s'est pas ouvert");
  return Array.from(menu.querySelectorAll('a, button'))
    .map((element) => element.textContent?.trim() ?? '')
    .filter((text) => text !== '');
}
