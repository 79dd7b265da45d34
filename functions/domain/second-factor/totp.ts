import { Secret, TOTP } from 'otpauth';
import { create as createQrCode } from 'qrcode/lib/core/qrcode.js';
import { render as svgOf } from 'qrcode/lib/renderer/svg-tag.js';

import { SECOND_FACTOR } from '../../../shared/constants';
import { MESSAGES } from '../../../shared/messages';
import type { EnrolmentReply, TotpEnrolment } from '../../../shared/schemas/second-factor';
import { createSecondFactorVault, type SecondFactorVault } from '../../security/second-factor-secrets';
import { ConflictError, InvalidInputError, InvalidSecondFactorError } from '../core/errors';
import type { SecondFactorRecord } from '../identity/ports';
import { isEnrolled } from '../identity/second-factor-step';
import type { SessionContext } from '../identity/sessions';
import { CodeThrottle } from './code-throttle';
import type { Browser, SecondFactorDeps } from './context';
import { mayChangeFactors, mayRemove, recoveryCodesFor, userNameOf } from './enrolment';
import { FactorPassing, factorChanged } from './passing';
import { SecondFactorChangedError, type SecondFactors } from './ports';

/**
 * Authenticator-app codes (TOTP, otpauth: SHA-1, 6 digits, 30 s, one step of drift either side):
 * enrolment from a QR code drawn here (the secret never goes to a QR code service), confirmed by a
 * first code; each code is accepted once (a later time step only); removal.
 */
export class TotpFactor {
  private readonly factors: SecondFactors;
  private readonly vault: SecondFactorVault;

  constructor(private readonly deps: SecondFactorDeps) {
    this.factors = deps.factors;
    this.vault = createSecondFactorVault(deps.keys);
  }

  /** Starts an enrolment: a fresh secret, kept encrypted until a first code confirms it. */
  async start(session: SessionContext): Promise<TotpEnrolment> {
    await mayChangeFactors(this.factors, this.deps.clock, session);
    const secret = new Secret({ size: 20 });
    await this.factors.savePendingTotp(
      session.licenseKeyHash,
      this.vault.encryptTotpSecret(session.licenseKeyHash, secret.base32),
    );
    const otpauthUri = this.totpOf(secret, session).toString();
    const svg = svgOf(createQrCode(otpauthUri, { errorCorrectionLevel: 'M' }), { margin: 2 });
    return {
      secret: secret.base32,
      otpauthUri,
      qrCodeDataUrl: `data:image/svg+xml;base64,${Buffer.from(svg, 'utf8').toString('base64')}`,
    };
  }

  /**
   * Confirms the enrolment with a first code from the app (counted as any code): the session
   * passes the factor, and every other session of the licence ends.
   */
  async confirm(
    session: SessionContext,
    code: string,
    browser: Browser,
  ): Promise<{ reply: EnrolmentReply; cookie: string }> {
    const record = await mayChangeFactors(this.factors, this.deps.clock, session);
    return new CodeThrottle(this.deps).counted(session, async () => {
      if (!record?.pendingTotpSecret)
        throw new InvalidInputError(null, MESSAGES.secondFactor.noPendingEnrolment);
      const secret = this.vault.decryptTotpSecret(session.licenseKeyHash, record.pendingTotpSecret);
      const step = this.acceptedStep(secret, session, code);
      const { codes, firstFactor } = recoveryCodesFor(record, this.vault, this.deps.clock, session);
      try {
        await this.factors.confirmTotp(session.licenseKeyHash, record.pendingTotpSecret, step, firstFactor);
      } catch (error) {
        if (error instanceof SecondFactorChangedError)
          throw new ConflictError(MESSAGES.secondFactor.noPendingEnrolment, { cause: error });
        throw error;
      }
      const passed = await new FactorPassing(this.deps).passed(session, browser);
      await factorChanged(this.deps, session.licenseKeyHash, passed);
      return { reply: { recoveryCodes: codes, ...passed.reply }, cookie: passed.cookie };
    });
  }

  /** Checks a code of the licence's app: right, and of a later time step than the last one used. */
  async check(session: SessionContext, record: SecondFactorRecord, code: string): Promise<void> {
    if (!record.totp) throw new InvalidSecondFactorError();
    const secret = this.vault.decryptTotpSecret(session.licenseKeyHash, record.totp.secret);
    const step = this.acceptedStep(secret, session, code);
    try {
      // Conditional on a later step than the last one used: a replayed code fails here.
      await this.factors.consumeTotpStep(session.licenseKeyHash, step);
    } catch (error) {
      if (error instanceof SecondFactorChangedError)
        throw new InvalidSecondFactorError(undefined, { cause: error });
      throw error;
    }
  }

  /** Removes the app (after a recent check); every other session of the licence ends. */
  async remove(session: SessionContext): Promise<void> {
    const record = await mayChangeFactors(this.factors, this.deps.clock, session);
    if (!record?.totp) throw new InvalidInputError(null, MESSAGES.secondFactor.notEnrolled);
    const last = record.passkeys.length === 0;
    mayRemove(record, this.deps.settings, session, last);
    try {
      await this.factors.removeTotp(session.licenseKeyHash, last);
    } catch (error) {
      if (error instanceof SecondFactorChangedError)
        throw new ConflictError(MESSAGES.request.conflict, { cause: error });
      throw error;
    }
    await factorChanged(this.deps, session.licenseKeyHash, {
      sessionId: session.sessionId,
      deviceId: isEnrolled(await this.factors.get(session.licenseKeyHash)) ? session.deviceId : null,
    });
  }

  /**
   * The time step a code belongs to, if it is right for the secret within one step either side
   * (clock drift); else 'Code invalide'.
   */
  private acceptedStep(base32Secret: string, session: SessionContext, code: string): number {
    const totp = this.totpOf(Secret.fromBase32(base32Secret), session);
    const timestamp = this.deps.clock.now().getTime();
    const delta = totp.validate({ token: code, timestamp, window: SECOND_FACTOR.totp.window });
    if (delta === null) throw new InvalidSecondFactorError();
    return Math.floor(timestamp / 1000 / SECOND_FACTOR.totp.periodSeconds) + delta;
  }

  private totpOf(secret: Secret, session: SessionContext): TOTP {
    return new TOTP({
      issuer: SECOND_FACTOR.issuer,
      label: userNameOf(session),
      algorithm: SECOND_FACTOR.totp.algorithm,
      digits: SECOND_FACTOR.totp.digits,
      period: SECOND_FACTOR.totp.periodSeconds,
      secret,
    });
  }
}
