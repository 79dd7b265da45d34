import { execFileSync } from 'node:child_process';

import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { AuditRepository } from '../../../../functions/data/directory/audit';
import { CompletionReportRepository } from '../../../../functions/data/scheduling/completion-reports';
import { ExecutionRepository } from '../../../../functions/data/scheduling/executions';
import { EXPORT_TABLES } from '../../../../functions/domain/billing/export-files';
import { REPORT_METRIC } from '../../../../functions/domain/core/metrics';
import { EXPORT_MESSAGES } from '../../../../shared/report-messages';
import type { CurrentDataExport, DataExport } from '../../../../shared/schemas/data-export';
import type { Folder } from '../../../../shared/schemas/folder';
import type { Workflow } from '../../../../shared/schemas/workflow';
import { createTestApp, disposeTestApp, type TestApp } from '../../../support/app';
import { parseCsv } from '../../../support/csv';
import { callRoute, createSignedInLawyer, issueAndSignIn, workflowFields } from '../../../support/directory';
import { withExports } from '../../../support/exports';

/**
 * A small firm's export, end to end through the API: asked by the lawyer (one at a time), built in
 * the background, offered by a link valid one hour; the ZIP opens with the standard `unzip`, every
 * CSV parses with its French headers, and the Google secrets are nowhere in it.
 */
describe("a firm's data export", () => {
  let app: TestApp;
  let exports: ReturnType<typeof withExports<TestApp>>;
  let admin: string;
  let lawyer: Awaited<ReturnType<typeof createSignedInLawyer>>;
  let workflows: Workflow[];
  const googlePassword = 'MotDePasseGoogle-Secret-42';

  beforeAll(async () => {
    exports = withExports(await createTestApp(inject('dynamoEndpoint')));
    app = exports.app;
    admin = (await issueAndSignIn(app, 'admin')).token;
    lawyer = await createSignedInLawyer(app, admin, {
      officeName: 'Étude Dupont, Martin & "associés"',
      googlePassword,
      googleCredentials: { clientId: 'client-id-secret', clientSecret: 'client-secret-42', redirectUri: '' },
    });
    const { body: folder } = await callRoute<Folder>(app, 'createFolder', {
      token: admin,
      body: { name: 'Succession Dupont', description: 'Pièces, relances' },
    });
    workflows = [];
    for (const name of ['Classement des pièces', 'Relance des clients']) {
      const { body } = await callRoute<Workflow>(app, 'createWorkflow', {
        token: admin,
        body: workflowFields(lawyer.email, { name, folderId: folder.id }),
      });
      workflows.push(body);
    }
    const executions = new ExecutionRepository(app.table);
    const reports = new CompletionReportRepository(app.table);
    for (const [index, workflow] of workflows.entries()) {
      for (let run = 0; run < 3; run++) {
        const startedAt = new Date(app.clock.now().getTime() - (run + 1) * 3_600_000 - index).toISOString();
        const runId = `${workflow.id}:manual:${run}`;
        await executions.record({
          workflowId: workflow.id,
          dispatchId: null,
          runId,
          trigger: 'manual',
          startedAt,
          durationMs: 120,
          httpStatus: 200,
          outcome: 'success',
          message: 'Workflow exécuté avec succès',
          attempt: 1,
        });
        await reports.recordOnce({
          workflowId: workflow.id,
          runId,
          trigger: 'manual',
          runStartedAt: startedAt,
          status: run === 0 ? 'failure' : 'success',
          summary: `${run + 2} e-mails classés, dont "urgent", à traiter`,
          items: run + 2,
          error: run === 0 ? 'Google Drive : accès refusé\nau dossier' : null,
          reportedAt: startedAt,
        });
      }
    }
  });
  afterAll(async () => {
    await exports.dispose();
    await disposeTestApp(app);
  });

  let ready: DataExport;

  it('starts in the background, one at a time per firm, and is audited', async () => {
    const first = await callRoute<DataExport>(app, 'startDataExport', { token: lawyer.token, body: {} });
    const second = await callRoute(app, 'startDataExport', { token: lawyer.token, body: {} });
    expect(first.statusCode).toBe(200);
    expect(first.body).toMatchObject({ status: 'building', lawyerId: lawyer.lawyer.id, downloadUrl: null });
    expect(first.body.fileName).toMatch(/^export-etude-dupont-martin-associes-\d{4}-\d{2}-\d{2}\.zip$/);
    expect(second).toMatchObject({ statusCode: 409, body: { error: EXPORT_MESSAGES.alreadyRunning } });

    await exports.idle();
    const current = await callRoute<CurrentDataExport>(app, 'currentDataExport', { token: lawyer.token });
    expect(current.body.export).toMatchObject({ id: first.body.id, status: 'ready' });
    ready = current.body.export as DataExport;
    expect(ready.sizeBytes).toBeGreaterThan(0);
    expect(Date.parse(ready.expiresAt ?? '') - Date.parse(ready.readyAt ?? '')).toBe(3_600_000);
    expect(app.metrics.countOf(REPORT_METRIC.exportBuilt)).toBe(1);
    const { entries } = await new AuditRepository(app.table).page(50);
    expect(entries).toContainEqual(
      expect.objectContaining({ action: 'lawyer.export', target: `lawyer:${lawyer.lawyer.id}` }),
    );
  });

  it('is a ZIP the standard unzip opens, each table as JSON and CSV with French headers, and a README', () => {
    const file = exports.files.resolveDownload(new URL(ready.downloadUrl ?? ''));
    expect(file?.fileName).toBe(ready.fileName);
    const path = file?.path ?? '';
    expect(execFileSync('unzip', ['-t', path]).toString()).toContain('No errors detected');
    const names = execFileSync('unzip', ['-Z1', path]).toString().split('\n').filter(Boolean);
    expect(names).toEqual([
      ...EXPORT_TABLES.flatMap((table) => [`${table.name}.json`, `${table.name}.csv`]),
      'README.txt',
    ]);
    const read = (name: string) => execFileSync('unzip', ['-p', path, name]).toString('utf8');

    for (const table of EXPORT_TABLES) {
      const json = JSON.parse(read(`${table.name}.json`)) as Record<string, unknown>[];
      const [headers, ...rows] = parseCsv(read(`${table.name}.csv`));
      expect(headers).toEqual(table.columns.map((column) => column.header));
      expect(rows).toHaveLength(json.length);
      for (const row of rows) expect(row).toHaveLength(headers?.length ?? 0);
    }
    const csv = (name: string) => parseCsv(read(`${name}.csv`));
    expect(csv('profil')[1]?.[6]).toBe('Étude Dupont, Martin & "associés"');
    expect(
      csv('automatisations')
        .slice(1)
        .map((row) => row[1])
        .sort(),
    ).toEqual(['Classement des pièces', 'Relance des clients']);
    expect(
      csv('dossiers')
        .slice(1)
        .map((row) => row[1]),
    ).toEqual(['Succession Dupont']);
    expect(csv('historique')).toHaveLength(1 + 6);
    const reports = csv('comptes-rendus').slice(1);
    expect(reports).toHaveLength(6);
    expect(reports.filter((row) => row[4] === 'échec').map((row) => row[7])).toEqual([
      'Google Drive : accès refusé\nau dossier',
      'Google Drive : accès refusé\nau dossier',
    ]);
    // The admin's creations of the firm and its automations, his look at its licence key (masked
    // in the reply that created it), and the export itself.
    expect(
      csv('journal-audit')
        .slice(1)
        .map((row) => row[2])
        .sort(),
    ).toEqual(
      [
        'lawyer.create',
        'lawyer.license-key.reveal',
        'lawyer.export',
        'workflow.create',
        'workflow.create',
      ].sort(),
    );
    expect(csv('abonnement')[1]?.[0]).toBe('lawyer');
    expect(read('README.txt')).toContain('Le mot de passe Google et les identifiants OAuth Google');

    const everything = execFileSync('unzip', ['-p', path]).toString('utf8');
    for (const secret of [googlePassword, 'client-secret-42', 'client-id-secret', lawyer.licenseKey])
      expect(everything).not.toContain(secret);
  });

  it("lets the admin export a lawyer he names, and refuses one he doesn't name", async () => {
    const named = await callRoute<DataExport>(app, 'startDataExport', {
      token: admin,
      body: { lawyerId: lawyer.lawyer.id },
    });
    const unnamed = await callRoute(app, 'startDataExport', { token: admin, body: {} });
    expect(named).toMatchObject({
      statusCode: 200,
      body: { status: 'building', lawyerId: lawyer.lawyer.id },
    });
    expect(unnamed).toMatchObject({
      statusCode: 400,
      body: { error: EXPORT_MESSAGES.lawyerRequired },
    });
    await exports.idle();
    const current = await callRoute<CurrentDataExport>(app, 'currentDataExport', {
      token: admin,
      query: { lawyerId: lawyer.lawyer.id },
    });
    expect(current.body.export).toMatchObject({ id: named.body.id, status: 'ready' });
  });

  it('offers the link one hour only', async () => {
    app.clock.advance(3_600_000 + 1_000);
    const fresh = await createSignedInLawyer(app, admin);
    const current = await callRoute<CurrentDataExport>(app, 'currentDataExport', {
      token: admin,
      query: { lawyerId: lawyer.lawyer.id },
    });
    expect(current.body.export).toMatchObject({ status: 'expired', downloadUrl: null });
    const none = await callRoute<CurrentDataExport>(app, 'currentDataExport', { token: fresh.token });
    expect(none.body).toEqual({ export: null });
  });
});
