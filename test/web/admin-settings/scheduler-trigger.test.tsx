import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { jsonResponse } from '../support/fetch-mock';
import { buttonNamed, card, openSettings, pageLoaded, pairsOf, schedulerRun, toasts } from './settings-page';

const MANUAL_CARD = 'Dernier déclenchement manuel';

describe("/admin/settings 'Déclencher Maintenant' (spec §2, §4, §8)", () => {
  it("runs the scheduler once with trigger 'manual' and the time of the click, and toasts the summary", async () => {
    // Arrange
    const { app, network } = openSettings({
      scheduler: () => jsonResponse(200, schedulerRun({ trigger: 'manual' })),
    });
    await pageLoaded();
    const before = Date.now();

    // Act
    await app.user.click(screen.getByRole('button', { name: 'Déclencher Maintenant' }));

    // Assert
    await waitFor(() => expect(toasts('success')).toEqual(['Planificateur: 1/2 workflows réussis']));
    const sent = network.to('/api/workflow-scheduler');
    expect(sent).toHaveLength(1);
    expect(sent[0]?.method).toBe('POST');
    const body = sent[0]?.body as { trigger: string; timestamp: string };
    expect(Object.keys(body).sort()).toEqual(['timestamp', 'trigger']);
    expect(body.trigger).toBe('manual');
    expect(Date.parse(body.timestamp)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(body.timestamp)).toBeLessThanOrEqual(Date.now());
  });

  it("sends 'manual_force' once 'Exécution forcée' is ticked, says what it does, and toasts 'Exécution forcée: x/y'", async () => {
    // Arrange
    const { app, network } = openSettings({
      scheduler: () =>
        jsonResponse(
          200,
          schedulerRun({
            trigger: 'manual_force',
            executions: [
              { workflowId: '0b7e3a56-7c0e-4a55-b0f6-2c61a4d6f0aa', workflowName: 'A', status: 'success' },
              { workflowId: '1b7e3a56-7c0e-4a55-b0f6-2c61a4d6f0aa', workflowName: 'B', status: 'success' },
              { workflowId: '2b7e3a56-7c0e-4a55-b0f6-2c61a4d6f0aa', workflowName: 'C', status: 'success' },
            ],
            message: 'Exécution forcée: 3/3 workflows réussis',
          }),
        ),
    });
    await pageLoaded();
    const forced = screen.getByRole('checkbox', { name: /Exécution forcée/ });
    expect((forced as HTMLInputElement).checked).toBe(false);
    expect(createWrapper(document.body).findCheckbox()?.findDescription()?.getElement().textContent).toMatch(
      /^Efface la dernière exécution de chaque automatisation active et planifiée/,
    );

    // Act
    await app.user.click(forced);
    await app.user.click(screen.getByRole('button', { name: 'Déclencher Maintenant' }));

    // Assert
    await waitFor(() => expect(toasts('success')).toEqual(['Exécution forcée: 3/3 workflows réussis']));
    expect(network.to('/api/workflow-scheduler').map((request) => request.body)).toEqual([
      expect.objectContaining({ trigger: 'manual_force' }),
    ]);
  });

  it('shows the button loading while the run is under way, and only one run is sent', async () => {
    // Arrange
    let answer: (response: Response) => void = () => {};
    const { app, network } = openSettings({
      scheduler: () =>
        new Promise<Response>((resolve) => {
          answer = resolve;
        }),
    });
    await pageLoaded();

    // Act
    await app.user.click(screen.getByRole('button', { name: 'Déclencher Maintenant' }));

    // Assert
    await waitFor(() => expect(buttonNamed('Déclencher Maintenant').findLoadingIndicator()).not.toBeNull());
    await app.user.click(buttonNamed('Déclencher Maintenant').getElement());
    expect(network.to('/api/workflow-scheduler')).toHaveLength(1);
    answer(jsonResponse(200, schedulerRun({ trigger: 'manual' })));
    await waitFor(() => expect(buttonNamed('Déclencher Maintenant').findLoadingIndicator()).toBeNull());
  });

  it('fills the manual card with the reply and asks the status again (last run, dead letters)', async () => {
    // Arrange
    const { app, network } = openSettings({
      scheduler: () =>
        jsonResponse(
          200,
          schedulerRun({ trigger: 'manual', message: 'Planificateur: 1/2 workflows réussis' }),
        ),
    });
    await pageLoaded();
    await waitFor(() => expect(pairsOf(card(MANUAL_CARD))).toEqual({ Heure: 'Jamais' }));

    // Act
    await app.user.click(screen.getByRole('button', { name: 'Déclencher Maintenant' }));

    // Assert
    await waitFor(() =>
      expect(pairsOf(card(MANUAL_CARD))['Automatisations traitées / vérifiées']).toBe('2 / 3'),
    );
    expect(network.to('/api/scheduler/status')).toHaveLength(2);
  });

  it.each([
    [
      'the server refuses with its words',
      () => jsonResponse(409, { error: 'Planificateur déjà en cours' }),
      'Erreur du planificateur: Planificateur déjà en cours',
    ],
    [
      'the server fails without words',
      () => new Response('', { status: 502 }),
      "Erreur lors de l'exécution du planificateur",
    ],
    [
      'the server cannot be reached',
      () => Promise.reject(new TypeError('Failed to fetch')),
      'Aucune réponse du planificateur',
    ],
    [
      'the reply is not a scheduler result',
      () => jsonResponse(200, { ok: true }),
      "Erreur inattendue lors de l'exécution du planificateur",
    ],
  ])('toasts the failure when %s', async (_case, scheduler, toast) => {
    // Arrange
    const { app } = openSettings({ scheduler });
    await pageLoaded();

    // Act
    await app.user.click(screen.getByRole('button', { name: 'Déclencher Maintenant' }));

    // Assert
    await waitFor(() => expect(toasts('error')).toEqual([toast]));
    expect(toasts('success')).toEqual([]);
    expect(buttonNamed('Déclencher Maintenant').findLoadingIndicator()).toBeNull();
    expect(pairsOf(card(MANUAL_CARD))).toEqual({ Heure: 'Jamais' });
  });

  it('toasts the error of a run that finished badly and shows it on the card with the failure badge', async () => {
    // Arrange
    const error = "Erreur du planificateur: 1 workflow(s) n'ont pas pu être mis en file d'exécution";
    const { app } = openSettings({
      scheduler: () => jsonResponse(200, schedulerRun({ trigger: 'manual', success: false, error })),
    });
    await pageLoaded();

    // Act
    await app.user.click(screen.getByRole('button', { name: 'Déclencher Maintenant' }));

    // Assert
    await waitFor(() => expect(toasts('error')).toEqual([error]));
    const manual = card(MANUAL_CARD);
    expect(createWrapper(manual.getElement()).findStatusIndicator()?.getElement().textContent).toBe('Échec');
    expect(manual.getElement().textContent).toContain(`❌ Erreur: ${error}`);
  });

  it("toasts 'Erreur lors de l'exécution du planificateur' for a failed run that gives no error", async () => {
    // Arrange
    const { app } = openSettings({
      scheduler: () => jsonResponse(200, schedulerRun({ trigger: 'manual', success: false })),
    });
    await pageLoaded();

    // Act
    await app.user.click(screen.getByRole('button', { name: 'Déclencher Maintenant' }));

    // Assert
    await waitFor(() => expect(toasts('error')).toEqual(["Erreur lors de l'exécution du planificateur"]));
  });
});
