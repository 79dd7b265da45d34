import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import type { Lawyer } from '../../../shared';
import { emptyBackend, jsonResponse, mockNetwork, type SentRequest } from '../support/fetch-mock';
import { choose, errorOf, formField, inputOf, typeInto } from '../support/form-fields';
import { renderApp } from '../support/render-app';
import { storeSessionOf } from '../support/sessions';
import { countsReply, isGet, matchesQuery } from '../support/workflow-lists';
import { lawyerFixture, workflowFixture } from './fixtures';

/** The lawyers a GET /api/lawyers asks for (its search), as the server answers. */
function lawyersAskedFor(lawyers: readonly Lawyer[], url: string): Response {
  const query = new URL(url, 'http://localhost').searchParams;
  const found = lawyers.filter((lawyer) =>
    matchesQuery(query, [lawyer.firstName, lawyer.lastName, lawyer.email, lawyer.officeName]),
  );
  return jsonResponse(200, { lawyers: found, nextCursor: null });
}

/** The admin's automations page over a backend holding these lawyers. */
function openWithLawyers(lawyers: Lawyer[], onCreate?: (request: SentRequest) => Response) {
  const network = mockNetwork((request) => {
    if (isGet(request, '/api/lawyers')) return lawyersAskedFor(lawyers, request.url);
    if (isGet(request, '/api/counts')) return countsReply([], lawyers.length);
    if (request.method === 'POST' && request.url.endsWith('/api/workflows') && onCreate)
      return onCreate(request);
    return emptyBackend(request);
  });
  storeSessionOf('admin');
  return { network, app: renderApp('/admin/workflows') };
}

async function openDialog(app: ReturnType<typeof renderApp>) {
  await app.user.click((await screen.findAllByRole('button', { name: 'Nouvelle Automatisation' }))[0]!);
  await screen.findByRole('dialog');
}

/** Waits for the server's count of lawyers, which 'Créer' waits for, to enable it. */
async function createEnabled() {
  await waitFor(() =>
    expect((screen.getByRole('button', { name: 'Créer' }) as HTMLButtonElement).disabled).toBe(false),
  );
}

describe('automation dialog (spec §5 automation form)', () => {
  it('pre-fills name, description and webhook from the chosen type', async () => {
    const { app } = openWithLawyers([lawyerFixture()]);
    await openDialog(app);

    await choose("Type d'automatisation", 'document_classification');

    await waitFor(() => expect(inputOf('Nom').value).toBe('Classement des Pièces'));
    expect(inputOf('Description').value.length).toBeGreaterThanOrEqual(10);
    expect(inputOf('URL du webhook').value).toMatch(/^https:\/\/.+\/webhook\/classement-pieces$/);
  });

  it('shows every message of spec §5 and sends nothing', async () => {
    const { app, network } = openWithLawyers([lawyerFixture()]);
    await openDialog(app);
    await typeInto(app.user, 'Nom', 'ab');
    await typeInto(app.user, 'Description', 'trop court');
    await typeInto(app.user, 'URL du webhook', 'ftp://n8n.cabinet.fr/webhook');
    await createEnabled();

    await app.user.click(screen.getByRole('button', { name: 'Créer' }));

    expect(errorOf('Nom')).toBe('Le nom doit contenir au moins 3 caractères');
    expect(errorOf('Description')).toBeNull();
    expect(errorOf('URL du webhook')).toBe('Veuillez entrer une URL valide');
    expect(errorOf('Client (avocat)')).toBe('Veuillez sélectionner un avocat');
    await typeInto(app.user, 'Description', 'court');
    expect(errorOf('Description')).toBe('La description doit contenir au moins 10 caractères');
    await typeInto(app.user, 'URL du webhook', 'pas une adresse');
    expect(errorOf('URL du webhook')).toBe('Veuillez entrer une URL valide');
    expect(network.requests.filter((request) => request.method === 'POST')).toEqual([]);
  });

  it("says 'Aucun client disponible' and disables the submit when there is no lawyer", async () => {
    const { app } = openWithLawyers([]);
    await openDialog(app);

    expect(
      await screen.findByText("Aucun client disponible. Veuillez d'abord créer un client."),
    ).toBeVisible();
    expect((screen.getByRole('button', { name: 'Créer' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('creates the automation for the chosen lawyer with scheduling off, and says so', async () => {
    const lawyer = lawyerFixture();
    const { app, network } = openWithLawyers([lawyer], (request) =>
      jsonResponse(201, {
        ...(request.body as object),
        id: '0b7e3a56-7c0e-4a55-b0f6-2c61a4d6f0aa',
        active: true,
        cronSettings: { enabled: false, interval: 2, lastRun: null, nextRun: null },
        createdAt: '2026-11-23T09:00:00.000Z',
        updatedAt: '2026-11-23T09:00:00.000Z',
      }),
    );
    await openDialog(app);
    // The picker's options are the server's first page of lawyers.
    await choose('Client (avocat)', lawyer.email);
    await createEnabled();

    await app.user.click(screen.getByRole('button', { name: 'Créer' }));

    expect(await screen.findByText('Automatisation créée')).toBeVisible();
    const [sent] = network.to('/api/workflows').filter((request) => request.method === 'POST');
    expect(sent?.body).toMatchObject({
      lawyerEmail: lawyer.email,
      type: 'client_management',
      folderId: null,
    });
    expect(sent?.body).not.toHaveProperty('cronEnabled');
  });

  it('locks the lawyer in edit mode and refuses a lawyer no longer in the list', async () => {
    // Arrange: an automation whose lawyer has since been deleted.
    const orphan = workflowFixture({ lawyerEmail: 'parti@cabinet.fr' });
    mockNetwork((request) => {
      if (isGet(request, '/api/lawyers')) return lawyersAskedFor([lawyerFixture()], request.url);
      if (isGet(request, '/api/workflows')) {
        return jsonResponse(200, { workflows: [orphan] });
      }
      if (isGet(request, '/api/counts')) return countsReply([orphan], 1);
      return emptyBackend(request);
    });
    storeSessionOf('admin');
    const app = renderApp('/admin/workflows');
    await app.user.click(await screen.findByRole('button', { name: `Actions de ${orphan.name}` }));
    await app.user.click(await screen.findByRole('menuitem', { name: 'Modifier' }));
    await screen.findByRole('dialog');
    await waitFor(() =>
      expect((screen.getByRole('button', { name: 'Enregistrer' }) as HTMLButtonElement).disabled).toBe(false),
    );

    // Act
    await app.user.click(screen.getByRole('button', { name: 'Enregistrer' }));

    // Assert
    expect(formField('Client (avocat)').findControl()?.findSelect()?.isDisabled()).toBe(true);
    expect(errorOf('Client (avocat)')).toBe("L'avocat sélectionné n'existe pas dans notre base de données");
  });
});

describe('folder dialog (spec §5 folder)', () => {
  it('does nothing for a name that is blank once trimmed, and creates a named folder', async () => {
    const network = mockNetwork((request) =>
      request.method === 'POST' && request.url.endsWith('/api/folders')
        ? jsonResponse(201, {
            id: '5d6f0d1e-1c1b-4a4e-9b7f-0c8b8f1a2b3c',
            name: 'Succession Dupont',
            description: null,
            createdAt: '2026-11-23T09:00:00.000Z',
            updatedAt: '2026-11-23T09:00:00.000Z',
          })
        : emptyBackend(request),
    );
    storeSessionOf('admin');
    const app = renderApp('/admin/workflows');
    await app.user.click(await screen.findByRole('tab', { name: 'Dossiers' }));
    await app.user.click(screen.getByRole('button', { name: 'Nouveau Dossier' }));
    await screen.findByRole('dialog');

    await typeInto(app.user, 'Nom du dossier', '   ');
    await app.user.click(screen.getByRole('button', { name: 'Créer' }));
    expect(network.to('/api/folders').filter((request) => request.method === 'POST')).toEqual([]);

    await typeInto(app.user, 'Nom du dossier', 'Succession Dupont');
    await app.user.click(screen.getByRole('button', { name: 'Créer' }));
    expect(await screen.findByText('Dossier créé')).toBeVisible();
    expect(network.to('/api/folders').find((request) => request.method === 'POST')?.body).toEqual({
      name: 'Succession Dupont',
      description: null,
    });
  });
});
