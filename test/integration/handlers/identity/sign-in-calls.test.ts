import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

import { LawyerRepository } from '../../../../functions/data/directory/lawyers';
import { LicenseRepository } from '../../../../functions/data/identity/licenses';
import { issueLicense } from '../../../../functions/domain/identity/licenses';
import { createVerifyLicenseHandler } from '../../../../functions/handlers/identity/verify-license';
import type { ApiHandler } from '../../../../functions/http/api-event';
import { createLicenseKeyVault } from '../../../../functions/security/license-key-vault';
import type { LicenseType, VerifyLicenseReply } from '../../../../shared/schemas/session';
import { apiEvent, createTestApp, disposeTestApp, invoke, type TestApp } from '../../../support/app';
import { lawyerRecord, minutesAfterOrigin, uniqueEmail } from '../../../support/records';
import { enrolTotp } from '../../../support/second-factor';

/** One table call of a request: what it was, and when it left and came back (call order, not time). */
interface TableCall {
  readonly command: string;
  readonly sent: number;
  readonly answered: number;
}

/**
 * The table calls of a sign-in (verify-license), counted through the document client every
 * repository sends with; their chain is read from the order of sending and answering (a call sent
 * after another was answered waits for it), never from a duration. The budget: 5 calls, 3 in
 * sequence (the licence's items and its pools' counts in one read; the client's count of wrong keys
 * beside the profile; the session written with its place counted).
 */
describe('a sign-in’s table calls', () => {
  let app: TestApp;
  let handler: ApiHandler;
  let ip = 0;

  /** Longest chain of calls each sent after the one before it was answered. */
  const chainOf = (calls: readonly TableCall[]): number => {
    const depth = new Map<TableCall, number>();
    for (const call of [...calls].sort((a, b) => a.sent - b.sent)) {
      const before = calls
        .filter((other) => other.answered < call.sent)
        .map((other) => depth.get(other) ?? 1);
      depth.set(call, 1 + Math.max(0, ...before));
    }
    return Math.max(0, ...depth.values());
  };

  /** What a sign-in may cost today, and what is measured, for the message of a failure. */
  const expectWithin = (calls: readonly TableCall[], most: { calls: number; inSequence: number }) => {
    const measured = `${calls.length} calls, ${chainOf(calls)} in sequence: ${calls.map((call) => call.command).join(', ')}`;
    expect(calls.length, measured).toBeLessThanOrEqual(most.calls);
    expect(chainOf(calls), measured).toBeLessThanOrEqual(most.inSequence);
  };

  /** Runs `act` with every table call it makes recorded. */
  const recorded = async <T>(act: () => Promise<T>): Promise<{ result: T; calls: TableCall[] }> => {
    const calls: TableCall[] = [];
    let tick = 0;
    const doc = app.table.doc;
    const send = doc.send.bind(doc);
    const counting = (async (command: object, ...rest: never[]) => {
      const sent = tick++;
      try {
        return await send(command as never, ...rest);
      } finally {
        calls.push({ command: command.constructor.name, sent, answered: tick++ });
      }
    }) as typeof doc.send;
    doc.send = counting;
    try {
      return { result: await act(), calls };
    } finally {
      doc.send = send;
    }
  };

  const issue = async (licenseType: LicenseType) => {
    const issued = await issueLicense(
      new LicenseRepository(app.table),
      createLicenseKeyVault(app.keys),
      { licenseType, userEmail: licenseType === 'admin' ? null : uniqueEmail('budget') },
      minutesAfterOrigin(0),
    );
    return issued;
  };

  const signIn = (licenseKey: string, cookies: string[] = []) =>
    invoke<VerifyLicenseReply>(
      handler,
      apiEvent('POST', '/api/verify-license', {
        body: { licenseKey },
        sourceIp: `10.77.${Math.floor(++ip / 250)}.${ip % 250}`,
        cookies,
      }),
    );

  beforeAll(async () => {
    app = await createTestApp(inject('dynamoEndpoint'), { requireSecondFactor: true });
    handler = createVerifyLicenseHandler(app);
  });

  afterAll(async () => {
    await disposeTestApp(app);
  });

  it('signs a lawyer with a profile in within 5 calls, 3 in sequence', async () => {
    // Arrange: a lawyer's licence and his profile (the display name is read from it).
    const { licenseKey, record } = await issue('lawyer');
    await new LawyerRepository(app.table).create(
      lawyerRecord({ email: record.userEmail ?? uniqueEmail('budget'), licenseKeyHash: record.keyHash }),
    );

    // Act
    const { result, calls } = await recorded(() => signIn(licenseKey));

    // Assert
    expect(result.body.valid).toBe(true);
    expectWithin(calls, { calls: 5, inSequence: 3 });
  });

  it('gives an admin with a factor his pending session within 5 calls, 3 in sequence', async () => {
    // Arrange: an admin licence whose factor is enrolled.
    const { licenseKey } = await issue('admin');
    const first = await signIn(licenseKey);
    await enrolTotp(app, first.body.token ?? '');

    // Act
    const { result, calls } = await recorded(() => signIn(licenseKey));

    // Assert
    expect(result.body).toMatchObject({ valid: true, secondFactor: expect.anything() });
    expectWithin(calls, { calls: 5, inSequence: 3 });
  });

  it('gives a remembered browser its own pending session within 5 calls, 3 in sequence', async () => {
    // Arrange: an admin who passed his factor in this browser (it holds the device cookie).
    const { licenseKey } = await issue('admin');
    const first = await signIn(licenseKey);
    const { device } = await enrolTotp(app, first.body.token ?? '');

    // Act
    const { result, calls } = await recorded(() => signIn(licenseKey, [device]));

    // Assert
    expect(result.body.valid).toBe(true);
    expectWithin(calls, { calls: 5, inSequence: 3 });
  });
});
