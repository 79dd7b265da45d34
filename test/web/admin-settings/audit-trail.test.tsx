import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import type { AuditPage } from '../../../shared';
import { jsonResponse } from '../support/fetch-mock';
import { auditEntry, openSettings, pageLoaded, toasts } from './settings-page';

function auditTable() {
  const table = createWrapper(document.body)
    .findAllTables()
    .find((candidate) => candidate.findHeaderSlot()?.getElement().textContent?.includes("Journal d'audit"));
  if (!table) throw new Error("Aucun tableau « Journal d'audit »");
  return table;
}

/** Each row as its cells' texts: when, and the sentence saying who did what to whom. */
function rows(): string[][] {
  return auditTable()
    .findRows()
    .map((row) => Array.from(row.getElement().querySelectorAll('td'), (cell) => cell.textContent ?? ''));
}

function loadMoreButton() {
  return auditTable()
    .findFooterSlot()
    ?.findAllButtons()
    .find((button) => button.getElement().textContent === 'Charger plus');
}

describe("/admin/settings 'Journal d'audit' (issue 3 item 5)", () => {
  it('lists the entries newest first, one French sentence each naming the author and the target', async () => {
    // Arrange
    const page: AuditPage = {
      entries: [
        auditEntry(1, {
          action: 'lawyer.delete',
          target: 'lawyer:6f1c1c40-8a52-4d39-9d1d-3f3b5d1e2a01',
          targetLabel: 'Camille Martin (camille.martin@gmail.com)',
        }),
        auditEntry(2, { action: 'workflow.unschedule', targetLabel: 'Relance des pièces' }),
        auditEntry(3, {
          action: 'lawyer.purge',
          actorEmail: 'rétention automatique',
          targetLabel: 'Louis Bernard (louis@gmail.com)',
        }),
        auditEntry(4, {
          action: 'folder.delete',
          actorEmail: 'admin',
          targetLabel: null,
          target: 'folder:9a1c',
        }),
      ],
      nextCursor: null,
    };
    const { network } = openSettings({ audit: () => jsonResponse(200, page) });
    await pageLoaded();

    // Assert
    await waitFor(() => expect(rows()).toHaveLength(4));
    const [first, second, third, fourth] = rows();
    // 11:59 UTC is 23/11/2026 in every time zone from UTC-11 to UTC+12.
    expect(first?.[0]).toMatch(/^23\/11\/2026 \d{2}:59$/);
    expect(rows().map((row) => row[1])).toEqual([
      "L'administrateur admin@cabinet.fr a supprimé l'avocat Camille Martin (camille.martin@gmail.com)",
      "L'administrateur admin@cabinet.fr a arrêté la planification de l'automatisation Relance des pièces",
      "La rétention automatique a supprimé, 30 jours après la résiliation, les données de l'avocat Louis Bernard (louis@gmail.com)",
      'Un administrateur a supprimé le dossier (folder:9a1c, nom non conservé)',
    ]);
    expect([first, second, third, fourth].every((row) => row?.length === 2)).toBe(true);
    expect(network.to('/api/audit')).toHaveLength(1);
    expect(loadMoreButton()).toBeUndefined();
  });

  it("loads the next page with the cursor on 'Charger plus', appends it, and hides the button on the last page", async () => {
    // Arrange
    const pages: Record<string, AuditPage> = {
      first: { entries: [auditEntry(1), auditEntry(2)], nextCursor: 'curseur/page 2' },
      'curseur/page 2': { entries: [auditEntry(3), auditEntry(4)], nextCursor: 'page-3' },
      'page-3': { entries: [auditEntry(5, { action: 'lawyer.delete' })], nextCursor: null },
    };
    const { app, network } = openSettings({
      audit: (cursor) => jsonResponse(200, pages[cursor ?? 'first']),
    });
    await pageLoaded();
    await waitFor(() => expect(rows()).toHaveLength(2));

    // Act
    await app.user.click(loadMoreButton()!.getElement());
    await waitFor(() => expect(rows()).toHaveLength(4));
    await app.user.click(loadMoreButton()!.getElement());

    // Assert
    await waitFor(() => expect(rows()).toHaveLength(5));
    expect(rows().map((row) => row[1]?.split(' ').at(-1))).toEqual(['1', '2', '3', '4', '5']);
    expect(rows()[4]?.[1]).toMatch(/ a supprimé l'avocat /);
    const urls = network.requests
      .filter((request) => new URL(request.url, 'http://localhost').pathname === '/api/audit')
      .map((request) => new URL(request.url, 'http://localhost').search);
    expect(urls).toEqual(['', '?cursor=curseur%2Fpage+2', '?cursor=page-3']);
    expect(loadMoreButton()).toBeUndefined();
  });

  it('keeps the rows and the button, and toasts the error, when a next page fails', async () => {
    // Arrange
    const { app } = openSettings({
      audit: (cursor) =>
        cursor
          ? jsonResponse(400, { error: 'Curseur de pagination invalide' })
          : jsonResponse(200, { entries: [auditEntry(1)], nextCursor: 'suite' }),
    });
    await pageLoaded();
    await waitFor(() => expect(rows()).toHaveLength(1));

    // Act
    await app.user.click(loadMoreButton()!.getElement());

    // Assert
    // The toast says what could not be read; the server's reason is for the logs.
    await waitFor(() => expect(toasts('error')).toEqual(["La suite du journal n'a pas pu être chargée"]));
    expect(rows()).toHaveLength(1);
    expect(loadMoreButton()?.getElement()).toBeVisible();
  });

  it("says 'Aucune action enregistrée' when the trail is empty", async () => {
    // Arrange & Act
    openSettings({ audit: () => jsonResponse(200, { entries: [], nextCursor: null }) });
    await pageLoaded();

    // Assert
    await waitFor(() =>
      expect(auditTable().findEmptySlot()?.getElement().textContent).toBe('Aucune action enregistrée'),
    );
    expect(loadMoreButton()).toBeUndefined();
  });

  it('shows the loading text until the first page arrives', async () => {
    // Arrange
    let answer: (response: Response) => void = () => {};
    openSettings({
      audit: () =>
        new Promise<Response>((resolve) => {
          answer = resolve;
        }),
    });
    await pageLoaded();

    // Assert
    await waitFor(() =>
      expect(auditTable().findLoadingText()?.getElement().textContent).toBe('Chargement du journal'),
    );
    answer(jsonResponse(200, { entries: [auditEntry(1)], nextCursor: null }));
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(auditTable().findLoadingText()).toBeNull();
  });

  it('shows why the trail could not be loaded in place of the rows', async () => {
    // Arrange & Act
    openSettings({ audit: () => jsonResponse(503, { error: "Le journal d'audit est indisponible" }) });
    await pageLoaded();

    // Assert
    await waitFor(() =>
      expect(auditTable().findEmptySlot()?.getElement().textContent).toBe(
        "Le journal d'audit est indisponible",
      ),
    );
    expect(screen.queryByText('Aucune action enregistrée')).toBeNull();
  });
});
