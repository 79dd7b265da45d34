import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { automationLink } from '../../../web/src/components/workflows/health-strings';
import { lawyerFixture, workflowFixture } from '../back-office/fixtures';
import { renderApp } from '../support/render-app';
import { storeSessionOf } from '../support/sessions';
import { mockAdminBackend } from './admin-backend';

describe("the health dashboard's link to an automation", () => {
  it('opens the automations searched for its name', async () => {
    const failing = workflowFixture({ id: crypto.randomUUID(), name: 'Relance en panne' });
    const other = workflowFixture({ id: crypto.randomUUID(), name: 'Classement des pièces' });
    mockAdminBackend({ lawyers: [lawyerFixture()], workflows: [failing, other] });
    storeSessionOf('admin');

    renderApp(automationLink('/admin/workflows', failing.name));

    await screen.findByText(failing.name);
    const titles = () =>
      createWrapper(document.body)
        .findCards()
        ?.findItems()
        .map((item) => item.findCardHeader()?.getElement().textContent);
    expect(titles()).toEqual([failing.name]);
    expect(screen.getByRole('searchbox', { name: 'Rechercher une automatisation' })).toHaveProperty(
      'value',
      failing.name,
    );
  });
});
