import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';

import { readDeviceCookie } from '../../../../functions/domain/identity/device-cookie';
import { SECOND_FACTOR } from '../../../../shared/constants';
import { EMAIL_MESSAGES } from '../../../../shared/email-messages';
import { MESSAGES } from '../../../../shared/messages';
import type { RememberedBrowserList } from '../../../../shared/schemas/second-factor';
import { createTestApp, disposeTestApp, MemoryMailer, type TestApp } from '../../../support/app';
import { callRoute, createSignedInLawyer } from '../../../support/directory';
import {
  codeOf,
  deviceCookieOf,
  enrolTotp,
  issueLicenseFor,
  OTHER_BROWSER,
  signInFrom,
  verifyCode,
  wrongCodeOf,
} from '../../../support/second-factor';

const { maxFailures, windowSeconds } = SECOND_FACTOR.codeThrottle;

/**
 * A key-holder without the factor cannot keep the owner out: the browser that passed the factor is
 * remembered (a signed, HttpOnly device cookie) and wrong codes sent from elsewhere never throttle
 * it; their lock e-mails the owner; and from browsers not remembered no more than 5 wrong codes are
 * evaluated per licence and window.
 */
describe('remembered browsers', () => {
  let app: TestApp;
  const mailer = new MemoryMailer();
  let adminToken: string;

  beforeAll(async () => {
    const base = await createTestApp(inject('dynamoEndpoint'), { requireSecondFactor: true });
    app = {
      ...base,
      mail: {
        mailer,
        sender: 'Assistant <no-reply@cabinet.example>',
        publicUrl: () => 'https://cabinet.example',
      },
    };
  });
  afterAll(async () => {
    await disposeTestApp(app);
  });
  beforeEach(async () => {
    app.clock.advance(60 * 60 * 1000);
    // An admin who enrolled, to create the lawyers (his step-up stays recent for the test).
    const admin = await issueLicenseFor(app, 'admin', null);
    adminToken = (await enrolTotp(app, (await signInFrom(app, admin.licenseKey)).token!)).token;
  });

  /** A lawyer licence (its e-mail his) with TOTP enrolled from the owner's browser. */
  async function enrolledLawyer() {
    const lawyer = await createSignedInLawyer(app, adminToken);
    return { ...lawyer, ...(await enrolTotp(app, lawyer.token)) };
  }

  /** Sends `count` wrong codes from browsers not remembered (fresh key-only sessions). */
  async function wrongCodesFromElsewhere(owner: { licenseKey: string; secret: string }, count: number) {
    const statuses: number[] = [];
    for (let index = 0; index < count; index++) {
      const pending = (await signInFrom(app, owner.licenseKey)).token!;
      const reply = await verifyCode(app, pending, wrongCodeOf(app, owner.secret, index * 7919), {
        userAgent: OTHER_BROWSER,
      });
      statuses.push(reply.statusCode);
    }
    return statuses;
  }

  it('gives the browser that passed the factor a signed HttpOnly, SameSite=Strict device cookie for 30 days', async () => {
    // Arrange
    const owner = await enrolledLawyer();
    const pending = (await signInFrom(app, owner.licenseKey)).token!;

    // Act
    const passed = await verifyCode(app, pending, codeOf(app, owner.secret));

    // Assert
    expect(passed.statusCode).toBe(200);
    const { cookie, attributes } = deviceCookieOf(passed.result);
    expect(attributes).toEqual(
      expect.arrayContaining(['Path=/api', 'HttpOnly', 'SameSite=Strict', `Max-Age=${30 * 24 * 60 * 60}`]),
    );
    // Plain http on localhost (the test app's site): a Secure cookie would never come back.
    expect(attributes).not.toContain('Secure');
    const claims = await readDeviceCookie(app.keys.sessionSigningKey, cookie.split('=')[1], app.clock.now());
    expect(claims).toEqual({ deviceId: expect.any(String), licenseKeyHash: owner.keyHash });
  });

  it('marks the device cookie Secure on an https site', async () => {
    // Arrange
    const onHttps = {
      ...app,
      secondFactor: {
        ...app.secondFactor,
        relyingParty: () => ({ id: 'cabinet.example', origin: 'https://cabinet.example' }),
      },
    };
    const { licenseKey } = await issueLicenseFor(app, 'lawyer', null);
    const token = (await signInFrom(onHttps, licenseKey)).token!;

    // Act
    const { body: enrolment } = await callRoute<{ secret: string }>(onHttps, 'startTotpEnrolment', { token });
    const confirmed = await callRoute(onHttps, 'confirmTotpEnrolment', {
      token,
      body: { code: codeOf(app, enrolment.secret) },
    });

    // Assert
    expect(deviceCookieOf(confirmed.result).attributes).toContain('Secure');
  });

  it('lets the owner in from his remembered browser while wrong codes from elsewhere lock the others out', async () => {
    // Arrange: the key is known to someone who lacks the factor, and uses up the window.
    const owner = await enrolledLawyer();
    const statuses = await wrongCodesFromElsewhere(owner, maxFailures + 2);
    expect(statuses).toEqual([...Array(maxFailures).fill(400), 429, 429]);

    // Act: the owner signs in from his remembered browser.
    const pending = (await signInFrom(app, owner.licenseKey, [owner.device])).token!;
    const passed = await verifyCode(app, pending, codeOf(app, owner.secret), { cookies: [owner.device] });

    // Assert
    expect(passed.statusCode).toBe(200);
    expect(passed.body.session?.valid).toBe(true);
    // From elsewhere, even the right code is still refused until the window ends.
    const elsewhere = (await signInFrom(app, owner.licenseKey)).token!;
    app.clock.advance(30_000);
    expect((await verifyCode(app, elsewhere, codeOf(app, owner.secret))).statusCode).toBe(429);
  });

  it("keeps the remembered browser's pending sign-in out of reach of key-only sign-ins made elsewhere", async () => {
    // Arrange
    const owner = await enrolledLawyer();
    const pending = (await signInFrom(app, owner.licenseKey, [owner.device])).token!;

    // Act: more key-only sign-ins than the licence keeps pending.
    for (let index = 0; index < SECOND_FACTOR.pendingSessions.perLicense + 2; index++)
      await signInFrom(app, owner.licenseKey);

    // Assert
    expect(
      (await verifyCode(app, pending, codeOf(app, owner.secret), { cookies: [owner.device] })).statusCode,
    ).toBe(200);
  });

  it('e-mails the owner once when wrong codes lock his licence: what happened and how to change the key', async () => {
    // Arrange
    const owner = await enrolledLawyer();
    const before = mailer.to(owner.email).length;

    // Act
    await wrongCodesFromElsewhere(owner, maxFailures + 3);

    // Assert
    const sent = mailer.to(owner.email).slice(before);
    expect(sent).toHaveLength(1);
    const texts = EMAIL_MESSAGES.codesLocked;
    expect(sent[0]).toMatchObject({ subject: texts.subject });
    expect(sent[0]!.text).toContain(`${maxFailures} codes de vérification erronés`);
    expect(sent[0]!.text).toContain(`refusés pendant ${windowSeconds / 60} minutes`);
    expect(sent[0]!.text).toContain(texts.rememberedUnaffected);
    expect(sent[0]!.text).toContain(texts.changeKeyMember);
    expect(sent[0]!.text).not.toContain(owner.licenseKey);
  });

  it('evaluates no more than 5 wrong codes per window from browsers not remembered, a right code erasing none', async () => {
    // Arrange: four wrong codes, then the owner's right one from a browser not remembered.
    const owner = await enrolledLawyer();
    await wrongCodesFromElsewhere(owner, maxFailures - 1);
    const fromNewBrowser = (await signInFrom(app, owner.licenseKey)).token!;
    expect((await verifyCode(app, fromNewBrowser, codeOf(app, owner.secret))).statusCode).toBe(200);

    // Act
    const after = await wrongCodesFromElsewhere(owner, 2);

    // Assert: the fifth wrong code is the window's last.
    expect(after).toEqual([400, 429]);
  });

  it('lists the remembered browsers in the security settings and forgets one, ending its sessions', async () => {
    // Arrange: the owner's browser (enrolment), and a second one that passed the factor too.
    const owner = await enrolledLawyer();
    const secondPending = (await signInFrom(app, owner.licenseKey)).token!;
    const second = await verifyCode(app, secondPending, codeOf(app, owner.secret), {
      userAgent: OTHER_BROWSER,
    });
    const secondToken = second.body.session!.token!;
    const secondDevice = deviceCookieOf(second.result).cookie;

    // Act
    const listed = await callRoute<RememberedBrowserList>(app, 'listRememberedBrowsers', {
      token: owner.token,
    });
    const secondId = listed.body.browsers.find((browser) => !browser.current)!.id;
    const forgotten = await callRoute(app, 'forgetRememberedBrowser', {
      token: owner.token,
      params: { id: secondId },
    });

    // Assert
    expect(listed.body.browsers.map(({ label, current }) => ({ label, current }))).toEqual([
      { label: 'Chrome sur Linux', current: false },
      { label: 'Firefox sur Windows', current: true },
    ]);
    expect(forgotten).toMatchObject({ statusCode: 200, body: { success: true } });
    expect((await callRoute(app, 'listAudit', { token: secondToken })).statusCode).toBe(401);
    const after = await callRoute<RememberedBrowserList>(app, 'listRememberedBrowsers', {
      token: owner.token,
    });
    expect(after.body.browsers.map((browser) => browser.label)).toEqual(['Firefox sur Windows']);
    // Its cookie no longer shelters it: locked out with the others.
    await wrongCodesFromElsewhere(owner, maxFailures);
    const fromForgotten = (await signInFrom(app, owner.licenseKey, [secondDevice])).token!;
    expect(
      (await verifyCode(app, fromForgotten, codeOf(app, owner.secret), { cookies: [secondDevice] }))
        .statusCode,
    ).toBe(429);
    const again = await callRoute(app, 'forgetRememberedBrowser', {
      token: owner.token,
      params: { id: secondId },
    });
    expect(again).toMatchObject({ statusCode: 404, body: { error: MESSAGES.secondFactor.browserNotFound } });
  });

  it("refuses a device cookie of another licence, and lists no other licence's browsers", async () => {
    // Arrange
    const owner = await enrolledLawyer();
    const other = await enrolledLawyer();
    await wrongCodesFromElsewhere(owner, maxFailures);

    // Act: the other licence's cookie sent with the owner's key.
    const pending = (await signInFrom(app, owner.licenseKey, [other.device])).token!;
    const refused = await verifyCode(app, pending, codeOf(app, owner.secret), { cookies: [other.device] });
    const listed = await callRoute<RememberedBrowserList>(app, 'listRememberedBrowsers', {
      token: other.token,
    });

    // Assert
    expect(refused.statusCode).toBe(429);
    expect(listed.body.browsers).toHaveLength(1);
    expect(listed.body.browsers[0]!.current).toBe(true);
  });
});
