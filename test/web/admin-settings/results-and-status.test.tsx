import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import type { SchedulerStatusReply } from '../../../shared';
import { jsonResponse } from '../support/fetch-mock';
import {
  buttonNamed,
  card,
  NO_RUN_YET,
  openSettings,
  pageLoaded,
  pairsOf,
  schedulerRun,
  toasts,
} from './settings-page';

const MANUAL_CARD = 'Dernier déclenchement manuel';
const SCHEDULE_CARD = 'Dernière exécution automatique';
const DEAD_LETTERS_CARD = 'Exécutions en échec';

function withStatus(status: SchedulerStatusReply) {
  return openSettings({ status: () => jsonResponse(200, status) });
}

function badgeOf(title: string) {
  return createWrapper(card(title).getElement()).findStatusIndicator();
}

describe('/admin/settings last results (spec §2, §3 scheduler run result)', () => {
  it("reads 'Jamais' on both cards before any run", async () => {
    // Arrange & Act
    withStatus(NO_RUN_YET);
    await pageLoaded();

    // Assert
    await waitFor(() => expect(pairsOf(card(SCHEDULE_CARD))).toEqual({ Heure: 'Jamais' }));
    expect(pairsOf(card(MANUAL_CARD))).toEqual({ Heure: 'Jamais' });
    expect(badgeOf(SCHEDULE_CARD)).toBeNull();
  });

  it('shows the last scheduled run: success badge, processed out of checked, succeeded, failed, fr-FR time, message', async () => {
    // Arrange & Act
    withStatus({ ...NO_RUN_YET, lastScheduledRun: schedulerRun() });
    await pageLoaded();

    // Assert
    await waitFor(() => expect(badgeOf(SCHEDULE_CARD)?.getElement().textContent).toBe('Succès'));
    const pairs = pairsOf(card(SCHEDULE_CARD));
    expect(pairs['Automatisations traitées / vérifiées']).toBe('2 / 3');
    expect(pairs.Réussies).toBe('1');
    expect(pairs.Échouées).toBe('1');
    // 12:30 UTC is 23/11/2026 in every time zone from UTC-11 to UTC+11; the minutes stay 30.
    expect(pairs.Heure).toMatch(/^23\/11\/2026 \d{2}:30$/);
    expect(pairs.Message).toBe('Planificateur: 1/2 workflows réussis');
    expect(card(SCHEDULE_CARD).getElement().textContent).not.toContain('❌');
    expect(pairsOf(card(MANUAL_CARD))).toEqual({ Heure: 'Jamais' });
  });

  it('counts every run of a large run as processed, and says the other counts are over the runs it follows', async () => {
    // Arrange & Act: 10,000 runs queued, 2 of them followed to their end (a few per shard).
    withStatus({
      ...NO_RUN_YET,
      lastScheduledRun: schedulerRun({
        workflows_checked: 10_000,
        workflows_processed: 10_000,
        message: 'Planificateur: 10000 mises en file sur 10000 workflows vérifiés',
      }),
    });
    await pageLoaded();

    // Assert
    await waitFor(() =>
      expect(pairsOf(card(SCHEDULE_CARD))['Automatisations traitées / vérifiées']).toBe('10000 / 10000'),
    );
    const pairs = pairsOf(card(SCHEDULE_CARD));
    expect(pairs.Réussies).toBe('1');
    expect(pairs.Échouées).toBe('1');
    expect(card(SCHEDULE_CARD).getElement().textContent).toContain(
      'Réussies, échouées et en file : sur 2 des 10000 exécutions, suivies jusqu’à leur fin',
    );
    // A run whose every run is listed says nothing of the kind.
    expect(card(MANUAL_CARD).getElement().textContent).not.toContain('suivies jusqu’à leur fin');
  });

  it("shows the last manual run kept by the server, with the failure badge and '❌ Erreur: {message}'", async () => {
    // Arrange & Act
    withStatus({
      ...NO_RUN_YET,
      lastManualRun: schedulerRun({
        trigger: 'manual_force',
        success: false,
        workflows_checked: 0,
        executions: [],
        message: "Erreur lors de l'exécution du planificateur",
        error: "Erreur inattendue lors de l'exécution du planificateur",
      }),
    });
    await pageLoaded();

    // Assert
    await waitFor(() => expect(badgeOf(MANUAL_CARD)?.getElement().textContent).toBe('Échec'));
    const pairs = pairsOf(card(MANUAL_CARD));
    expect(pairs['Automatisations traitées / vérifiées']).toBe('0 / 0');
    expect(pairs.Réussies).toBe('0');
    expect(pairs.Échouées).toBe('0');
    expect(pairs.Message).toBe("Erreur lors de l'exécution du planificateur");
    expect(card(MANUAL_CARD).getElement().textContent).toContain(
      "❌ Erreur: Erreur inattendue lors de l'exécution du planificateur",
    );
  });

  it("says '❌ Erreur: Erreur inconnue' when a failed run carries an empty error", async () => {
    // Arrange & Act
    withStatus({ ...NO_RUN_YET, lastScheduledRun: schedulerRun({ success: false, error: '' }) });
    await pageLoaded();

    // Assert
    await waitFor(() =>
      expect(card(SCHEDULE_CARD).getElement().textContent).toContain('❌ Erreur: Erreur inconnue'),
    );
  });

  it('says so, and offers to retry, when the status cannot be loaded', async () => {
    // Arrange: the server fails the read and its one automatic retry, then answers.
    let calls = 0;
    const { app } = openSettings({
      status: () => {
        calls += 1;
        return calls <= 2
          ? jsonResponse(500, { error: 'Erreur interne du serveur' })
          : jsonResponse(200, { ...NO_RUN_YET, deadLetterCount: 4 });
      },
    });
    await pageLoaded();
    const alert = await screen.findByText("L'état du planificateur n'a pas pu être chargé");
    expect(alert).toBeVisible();
    expect(calls).toBe(2);
    expect(pairsOf(card(DEAD_LETTERS_CARD))['En attente']).toBe('Non disponible');

    // Act
    await app.user.click(screen.getByRole('button', { name: 'Réessayer' }));

    // Assert
    await waitFor(() => expect(pairsOf(card(DEAD_LETTERS_CARD))['En attente']).toBe('4'));
    expect(screen.queryByText("L'état du planificateur n'a pas pu être chargé")).toBeNull();
  });
});

describe('/admin/settings status card (spec §2, §3 global scheduling)', () => {
  it('shows ACTIF, the one-minute interval, at most 5 at once, and that every active workflow is checked each minute', async () => {
    // Arrange & Act
    withStatus(NO_RUN_YET);
    await pageLoaded();

    // Assert
    const status = card('État du planificateur');
    expect(createWrapper(status.getElement()).findStatusIndicator()?.getElement().textContent).toBe('ACTIF');
    expect(pairsOf(status)).toEqual({ Intervalle: '1 min', 'Exécutions simultanées (max.)': '5' });
    expect(status.getElement().textContent).toContain(
      'Toutes les automatisations actives et planifiées sont vérifiées chaque minute',
    );
  });
});

describe('/admin/settings dead letters', () => {
  it('shows the count, sends them back, toasts the reply and reads the count again', async () => {
    // Arrange
    let waiting = 2;
    const { app, network } = openSettings({
      status: () => jsonResponse(200, { ...NO_RUN_YET, deadLetterCount: waiting }),
      redrive: () => {
        const moved = waiting;
        waiting = 0;
        return jsonResponse(200, {
          moved,
          notSent: { workflowDeleted: 0, licenseInactive: 0 },
          message: `${moved} exécution(s) en échec renvoyée(s) dans la file d'exécution`,
        });
      },
    });
    await pageLoaded();
    await waitFor(() => expect(pairsOf(card(DEAD_LETTERS_CARD))['En attente']).toBe('2'));
    expect(buttonNamed('Relancer les exécutions en échec').isDisabled()).toBe(false);

    // Act
    await app.user.click(buttonNamed('Relancer les exécutions en échec').getElement());

    // Assert
    await waitFor(() =>
      expect(toasts('success')).toEqual(["2 exécution(s) en échec renvoyée(s) dans la file d'exécution"]),
    );
    const sent = network.to('/api/dead-letters/redrive');
    expect(sent).toHaveLength(1);
    expect(sent[0]?.method).toBe('POST');
    await waitFor(() => expect(pairsOf(card(DEAD_LETTERS_CARD))['En attente']).toBe('0'));
    expect(buttonNamed('Relancer les exécutions en échec').isDisabled()).toBe(true);
  });

  it('says how many runs could not be sent back, and why, as a warning', async () => {
    const message =
      "1 exécution(s) en échec renvoyée(s) dans la file d'exécution ; 2 non renvoyée(s) : 1 dont l'automatisation a été supprimée, 1 dont la licence du cabinet est inactive";
    const { app } = openSettings({
      status: () => jsonResponse(200, { ...NO_RUN_YET, deadLetterCount: 3 }),
      redrive: () =>
        jsonResponse(200, { moved: 1, notSent: { workflowDeleted: 1, licenseInactive: 1 }, message }),
    });
    await pageLoaded();
    await waitFor(() => expect(pairsOf(card(DEAD_LETTERS_CARD))['En attente']).toBe('3'));

    await app.user.click(buttonNamed('Relancer les exécutions en échec').getElement());

    await waitFor(() => expect(toasts('warning')).toEqual([message]));
    expect(toasts('success')).toEqual([]);
  });

  it('toasts the server error when the redrive fails', async () => {
    // Arrange
    const { app } = openSettings({
      status: () => jsonResponse(200, { ...NO_RUN_YET, deadLetterCount: 1 }),
      redrive: () => jsonResponse(503, { error: "La file d'exécution est indisponible" }),
    });
    await pageLoaded();
    await waitFor(() => expect(buttonNamed('Relancer les exécutions en échec').isDisabled()).toBe(false));

    // Act
    await app.user.click(buttonNamed('Relancer les exécutions en échec').getElement());

    // Assert
    await waitFor(() => expect(toasts('error')).toEqual(["La file d'exécution est indisponible"]));
  });

  it('disables the redrive when nothing waits', async () => {
    // Arrange & Act
    withStatus({ ...NO_RUN_YET, deadLetterCount: 0 });
    await pageLoaded();

    // Assert
    await waitFor(() => expect(pairsOf(card(DEAD_LETTERS_CARD))['En attente']).toBe('0'));
    expect(buttonNamed('Relancer les exécutions en échec').isDisabled()).toBe(true);
  });

  it("reads 'Non disponible' and disables the redrive when the count cannot be read", async () => {
    // Arrange & Act
    withStatus({ ...NO_RUN_YET, deadLetterCount: null });
    await pageLoaded();

    // Assert
    await waitFor(() => expect(pairsOf(card(DEAD_LETTERS_CARD))['En attente']).toBe('Non disponible'));
    expect(buttonNamed('Relancer les exécutions en échec').isDisabled()).toBe(true);
  });
});
