import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { workflowFixture } from '../back-office/fixtures';
import { openAsMember } from './support';

const never = workflowFixture({
  id: '0b7e3a56-7c0e-4a55-b0f6-2c61a4d6f011',
  name: 'Relance des pièces',
  active: false,
  cronSettings: { enabled: false, interval: null, lastRun: null, nextRun: null },
});
const ran = workflowFixture({
  id: '0b7e3a56-7c0e-4a55-b0f6-2c61a4d6f012',
  name: 'Gestion des clients',
  description: 'Enregistre les nouveaux clients',
  type: 'client_management',
  cronSettings: { enabled: true, interval: 2, lastRun: '2026-11-22T14:05:00.000Z', nextRun: null },
});

function card(name: string): HTMLElement {
  const item = screen.getByText(name).closest('li');
  if (!item) throw new Error(`Aucune carte « ${name} »`);
  return item;
}

describe('planning (/lawyer/cron and /notary/cron, spec §2 Planning)', () => {
  it('shows the fixed global scheduler: on, every minute, at most 5 at once', async () => {
    openAsMember('lawyer', '/lawyer/cron', { workflows: [] });

    expect(await screen.findByRole('heading', { level: 1, name: 'Planification' })).toBeVisible();
    const globalSwitch = screen.getByRole('checkbox', {
      name: /Planification automatique/,
    }) as HTMLInputElement;
    expect(globalSwitch.checked).toBe(true);
    expect(globalSwitch.disabled).toBe(true);
    expect(screen.getByText('toutes les minutes')).toBeVisible();
    expect(screen.getByText('5')).toBeVisible();
    expect(await screen.findByText('Aucune automatisation trouvée pour votre compte')).toBeVisible();
  });

  it("shows each workflow's badges, interval (60 when none) and last run (or 'Jamais')", async () => {
    openAsMember('notary', '/notary/cron', { workflows: [never, ran] });

    await screen.findByText('Gestion des clients');
    const idle = within(card('Relance des pièces'));
    expect(idle.getByText('Inactif')).toBeVisible();
    expect(idle.getByText('Relance Dossier Client')).toBeVisible();
    expect(idle.getByText('60 minutes')).toBeVisible();
    expect(idle.getByText('Jamais')).toBeVisible();

    const busy = within(card('Gestion des clients'));
    expect(busy.getByText('Enregistre les nouveaux clients')).toBeVisible();
    expect(busy.getByText('Actif')).toBeVisible();
    expect(busy.getByText('Gestion Client')).toBeVisible();
    expect(busy.getByText('2 minutes')).toBeVisible();
    expect(busy.getByText(/^22\/11\/2026 \d{2}:\d{2}$/)).toBeVisible();
    expect(busy.getByRole('button', { name: 'Exécuter Gestion des clients' })).toBeVisible();
    expect(busy.queryByText('Jamais')).toBeNull();
  });

  it("draws a firm's 25 automations 12 at a time, with 'Page suivante'", async () => {
    const workflows = Array.from({ length: 25 }, (_, index) =>
      workflowFixture({
        id: `0b7e3a56-7c0e-4a55-b0f6-2c61a4d6${String(index + 1).padStart(4, '0')}`,
        name: `Automatisation ${String(index + 1).padStart(2, '0')}`,
        createdAt: new Date(Date.UTC(2026, 10, 21, 9) - index * 60_000).toISOString(),
      }),
    );
    const { app } = openAsMember('lawyer', '/lawyer/cron', { workflows });
    const drawn = () => screen.getAllByText(/^Automatisation \d+$/).map((name) => name.textContent);

    await screen.findByText('Automatisation 01');
    expect(drawn()).toEqual(workflows.slice(0, 12).map((workflow) => workflow.name));

    await app.user.click(screen.getByRole('button', { name: 'Page suivante' }));
    await app.user.click(screen.getByRole('button', { name: 'Page suivante' }));
    expect(drawn()).toEqual(['Automatisation 25']);
  });

  it("says '1 minute', not '1 minutes', for a one-minute interval", async () => {
    const everyMinute = workflowFixture({
      id: '0b7e3a56-7c0e-4a55-b0f6-2c61a4d6f013',
      name: 'Classement des pièces',
      cronSettings: { enabled: true, interval: 1, lastRun: null, nextRun: null },
    });
    openAsMember('lawyer', '/lawyer/cron', { workflows: [everyMinute] });

    await screen.findByText('Classement des pièces');
    expect(within(card('Classement des pièces')).getByText('1 minute')).toBeVisible();
    expect(screen.queryByText('1 minutes')).toBeNull();
  });
});
