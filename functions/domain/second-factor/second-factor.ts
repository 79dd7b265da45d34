import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';

import { SECOND_FACTOR } from '../../../shared/constants';
import { MESSAGES } from '../../../shared/messages';
import type {
  EnrolmentReply,
  PasskeyOptionsReply,
  PublicKeyCredentialJson,
  SecondFactorStatus,
  TotpEnrolment,
  VerifySecondFactorReply,
} from '../../../shared/schemas/second-factor';
import type { SecondFactorStep, VerifyLicenseReply } from '../../../shared/schemas/session';
import type { AppKeys } from '../../security/app-keys';
import { createLicenseKeyVault } from '../../security/license-key-vault';
import {
  createSecondFactorVault,
  generateRecoveryCodes,
  normaliseRecoveryCode,
  type SecondFactorVault,
} from '../../security/second-factor-secrets';
import {
  ConflictError,
  ForbiddenError,
  InvalidInputError,
  InvalidSecondFactorError,
  NotFoundError,
  SecondFactorRequiredError,
  TooManySecondFactorAttemptsError,
} from '../core/errors';
import type { Clock } from '../core/ports';
import { type AuditTrail, auditTarget } from '../directory/audit';
import { findLawyerOfLicense, type ProfileLookup } from '../directory/members';
import type { LicenseRecord, Licenses, PasskeyRecord, SecondFactorRecord, Sessions } from '../identity/ports';
import { isEnrolled, secondFactorStepFor } from '../identity/second-factor-step';
import type { SessionContext, SessionService } from '../identity/sessions';
import { displayNameOf } from '../identity/sign-in';
import {
  type ChallengePurpose,
  type SecondFactorAttempts,
  SecondFactorChangedError,
  type SecondFactorSettings,
  type SecondFactors,
  type WebAuthnChallenges,
} from './ports';

/** A second-factor check, as the verify call receives it (codes already normalised by the schema). */
export type SecondFactorProof =
  | { readonly method: 'totp'; readonly code: string }
  | { readonly method: 'recovery'; readonly code: string }
  | { readonly method: 'passkey'; readonly credential: PublicKeyCredentialJson };

export interface SecondFactorServiceDependencies {
  readonly factors: SecondFactors;
  readonly attempts: SecondFactorAttempts;
  readonly challenges: WebAuthnChallenges;
  readonly licenses: Pick<Licenses, 'getByHash'>;
  readonly lawyers: ProfileLookup;
  /** The licence's sessions, which a reset ends. */
  readonly sessionRecords: Pick<Sessions, 'deleteByLicense'>;
  readonly sessions: Pick<SessionService, 'open' | 'markSecondFactor' | 'close'>;
  readonly audit: Pick<AuditTrail, 'record'>;
  readonly keys: AppKeys;
  readonly clock: Clock;
  readonly settings: SecondFactorSettings;
}

/**
 * The second factor of a licence: passkeys, authenticator codes and one-time recovery codes. It
 * completes the pending session sign-in opened, and re-checks the factor before sensitive actions.
 */
export class SecondFactorService {
  private readonly factors: SecondFactors;
  private readonly attempts: SecondFactorAttempts;
  private readonly challenges: WebAuthnChallenges;
  private readonly licenses: Pick<Licenses, 'getByHash'>;
  private readonly lawyers: ProfileLookup;
  private readonly sessionRecords: Pick<Sessions, 'deleteByLicense'>;
  private readonly sessions: Pick<SessionService, 'open' | 'markSecondFactor' | 'close'>;
  private readonly audit: Pick<AuditTrail, 'record'>;
  private readonly vault: SecondFactorVault;
  private readonly keys: AppKeys;
  private readonly clock: Clock;
  private readonly settings: SecondFactorSettings;

  constructor(deps: SecondFactorServiceDependencies) {
    this.factors = deps.factors;
    this.attempts = deps.attempts;
    this.challenges = deps.challenges;
    this.licenses = deps.licenses;
    this.lawyers = deps.lawyers;
    this.sessionRecords = deps.sessionRecords;
    this.sessions = deps.sessions;
    this.audit = deps.audit;
    this.keys = deps.keys;
    this.clock = deps.clock;
    this.settings = deps.settings;
    this.vault = createSecondFactorVault(deps.keys);
  }

  /**
   * For sign-in: what the licence must pass after its key, or null when nothing. A licence with a
   * factor is always asked for it; an admin licence without one must enrol (unless the environment
   * lifts that requirement).
   */
  async stepFor(license: LicenseRecord): Promise<SecondFactorStep | null> {
    return secondFactorStepFor(this.factors, this.settings, license);
  }

  /** The caller's factor: never a secret, a public key or a code. */
  async status(session: SessionContext): Promise<SecondFactorStatus> {
    const record = await this.factors.get(session.licenseKeyHash);
    const enrolled = isEnrolled(record);
    return {
      required: enrolled || (session.role === 'admin' && this.settings.requiredForAdmins),
      enrolled,
      totp: record?.totp != null,
      passkeys: (record?.passkeys ?? []).map((passkey) => ({ id: passkey.id, createdAt: passkey.createdAt })),
      recoveryCodesLeft: record?.recoveryCodeHashes.length ?? 0,
      verifiedAt: session.secondFactorAt,
    };
  }

  /** Starts a TOTP enrolment: a fresh secret, kept encrypted until a first code confirms it. */
  async startTotp(session: SessionContext): Promise<TotpEnrolment> {
    await this.mayEnrol(session);
    const secret = new Secret({ size: 20 });
    const totp = this.totpOf(secret, session);
    await this.factors.savePendingTotp(
      session.licenseKeyHash,
      this.vault.encryptTotpSecret(session.licenseKeyHash, secret.base32),
    );
    const otpauthUri = totp.toString();
    // Drawn here, as SVG, so the secret never goes to a QR code service.
    const svg = await QRCode.toString(otpauthUri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
    return {
      secret: secret.base32,
      otpauthUri,
      qrCodeDataUrl: `data:image/svg+xml;base64,${Buffer.from(svg, 'utf8').toString('base64')}`,
    };
  }

  /** Confirms the TOTP enrolment with a first code from the app. */
  async confirmTotp(session: SessionContext, code: string): Promise<EnrolmentReply> {
    const record = await this.mayEnrol(session);
    await this.reserveAttempt(session);
    if (!record?.pendingTotpSecret)
      throw new InvalidInputError(null, MESSAGES.secondFactor.noPendingEnrolment);
    const secret = this.vault.decryptTotpSecret(session.licenseKeyHash, record.pendingTotpSecret);
    const step = this.acceptedStep(secret, session, code);
    const recoveryCodes = isEnrolled(record) ? [] : generateRecoveryCodes();
    try {
      await this.factors.confirmTotp(
        session.licenseKeyHash,
        record.pendingTotpSecret,
        step,
        this.firstFactorOf(session, recoveryCodes),
      );
    } catch (error) {
      if (error instanceof SecondFactorChangedError)
        throw new ConflictError(MESSAGES.secondFactor.noPendingEnrolment, { cause: error });
      throw error;
    }
    return { recoveryCodes, ...(await this.passed(session)) };
  }

  /** WebAuthn registration options for a new passkey of the caller's licence. */
  async passkeyRegistrationOptions(session: SessionContext): Promise<PasskeyOptionsReply> {
    const record = await this.mayEnrol(session);
    if ((record?.passkeys.length ?? 0) >= SECOND_FACTOR.maxPasskeys)
      throw new InvalidInputError(null, MESSAGES.secondFactor.tooManyPasskeys);
    const relyingParty = this.settings.relyingParty();
    const userName = this.userNameOf(session);
    const options = await generateRegistrationOptions({
      rpName: SECOND_FACTOR.issuer,
      rpID: relyingParty.id,
      userName,
      userDisplayName: userName,
      userID: this.vault.webAuthnUserId(session.licenseKeyHash),
      attestationType: 'none',
      excludeCredentials: (record?.passkeys ?? []).map((passkey) => ({
        id: passkey.id,
        transports: passkey.transports,
      })),
      authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
    });
    await this.saveChallenge(session, 'registration', options.challenge);
    return { options: { ...options } };
  }

  /** Registers the passkey the browser created for the last registration options. */
  async registerPasskey(
    session: SessionContext,
    credential: PublicKeyCredentialJson,
  ): Promise<EnrolmentReply> {
    const record = await this.mayEnrol(session);
    const challenge = await this.takeChallenge(session, 'registration');
    const relyingParty = this.settings.relyingParty();
    let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
    try {
      verified = await verifyRegistrationResponse({
        response: credential as unknown as RegistrationResponseJSON,
        expectedChallenge: challenge,
        expectedOrigin: relyingParty.origin,
        expectedRPID: relyingParty.id,
        requireUserVerification: false,
      });
    } catch (error) {
      throw new InvalidSecondFactorError(MESSAGES.secondFactor.invalidPasskey, { cause: error });
    }
    if (!verified.verified) throw new InvalidSecondFactorError(MESSAGES.secondFactor.invalidPasskey);
    const { credential: created } = verified.registrationInfo;
    const passkey: PasskeyRecord = {
      id: created.id,
      publicKey: Buffer.from(created.publicKey).toString('base64url'),
      counter: created.counter,
      transports: created.transports ?? [],
      createdAt: this.clock.now().toISOString(),
    };
    const recoveryCodes = isEnrolled(record) ? [] : generateRecoveryCodes();
    try {
      await this.factors.addPasskey(
        session.licenseKeyHash,
        passkey,
        SECOND_FACTOR.maxPasskeys,
        this.firstFactorOf(session, recoveryCodes),
      );
    } catch (error) {
      if (error instanceof SecondFactorChangedError)
        throw new ConflictError(MESSAGES.request.conflict, { cause: error });
      throw error;
    }
    return { recoveryCodes, ...(await this.passed(session)) };
  }

  /** WebAuthn options to sign in (or step up) with one of the licence's passkeys. */
  async passkeyAuthenticationOptions(session: SessionContext): Promise<PasskeyOptionsReply> {
    const record = await this.factors.get(session.licenseKeyHash);
    if (!record || record.passkeys.length === 0)
      throw new InvalidInputError(null, MESSAGES.secondFactor.notEnrolled);
    const options = await generateAuthenticationOptions({
      rpID: this.settings.relyingParty().id,
      allowCredentials: record.passkeys.map((passkey) => ({
        id: passkey.id,
        transports: passkey.transports,
      })),
      userVerification: 'preferred',
    });
    await this.saveChallenge(session, 'authentication', options.challenge);
    return { options: { ...options } };
  }

  /**
   * Checks the second factor: completes a pending sign-in (a new, full session replaces the pending
   * one) or renews the check of a full session (step-up). Every attempt is counted before the
   * proof is looked at; a right one forgets the count.
   */
  async verify(session: SessionContext, proof: SecondFactorProof): Promise<VerifySecondFactorReply> {
    await this.reserveAttempt(session);
    const record = await this.factors.get(session.licenseKeyHash);
    if (!isEnrolled(record)) throw new InvalidInputError(null, MESSAGES.secondFactor.notEnrolled);
    if (proof.method === 'totp') await this.checkTotp(session, record, proof.code);
    else if (proof.method === 'recovery') await this.checkRecoveryCode(session, proof.code);
    else await this.checkPasskey(session, record, proof.credential);
    return this.passed(session);
  }

  /**
   * An admin resets another licence's factor (a lost phone): recorded on the audit trail, the
   * factor removed and the licence's sessions ended, so it enrols again at its next sign-in. An
   * admin's own factor is reset by another admin, or by the deployment's one-off command.
   */
  async reset(session: SessionContext, licenseKey: string): Promise<void> {
    const keyHash = createLicenseKeyVault(this.keys).hash(licenseKey);
    if (keyHash === session.licenseKeyHash) throw new InvalidInputError(null, MESSAGES.secondFactor.ownReset);
    const license = await this.licenses.getByHash(keyHash);
    if (!license) throw new NotFoundError(MESSAGES.secondFactor.licenseNotFound);
    const holder = license.licenseType === 'admin' ? null : await findLawyerOfLicense(this.lawyers, license);
    // The trail names the lawyer (id, name, e-mail), an admin licence by its type: never a key or its hash.
    await this.audit.record(
      session,
      'license.second-factor.reset',
      holder ? auditTarget.lawyer(holder) : auditTarget.license(license.licenseType),
    );
    await resetSecondFactorOf(this.factors, this.attempts, this.sessionRecords, keyHash);
  }

  private async checkTotp(session: SessionContext, record: SecondFactorRecord, code: string): Promise<void> {
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

  private async checkRecoveryCode(session: SessionContext, code: string): Promise<void> {
    const hash = this.vault.hashRecoveryCode(session.licenseKeyHash, normaliseRecoveryCode(code));
    try {
      await this.factors.consumeRecoveryCode(session.licenseKeyHash, hash);
    } catch (error) {
      if (error instanceof SecondFactorChangedError)
        throw new InvalidSecondFactorError(undefined, { cause: error });
      throw error;
    }
  }

  private async checkPasskey(
    session: SessionContext,
    record: SecondFactorRecord,
    credential: PublicKeyCredentialJson,
  ): Promise<void> {
    const challenge = await this.takeChallenge(session, 'authentication');
    const index = record.passkeys.findIndex((passkey) => passkey.id === credential.id);
    const passkey = record.passkeys[index];
    if (!passkey) throw new InvalidSecondFactorError(MESSAGES.secondFactor.invalidPasskey);
    const relyingParty = this.settings.relyingParty();
    let verified: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
    try {
      verified = await verifyAuthenticationResponse({
        response: credential as unknown as AuthenticationResponseJSON,
        expectedChallenge: challenge,
        expectedOrigin: relyingParty.origin,
        expectedRPID: relyingParty.id,
        credential: {
          id: passkey.id,
          publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
          counter: passkey.counter,
          transports: passkey.transports as never,
        },
        requireUserVerification: false,
      });
    } catch (error) {
      throw new InvalidSecondFactorError(MESSAGES.secondFactor.invalidPasskey, { cause: error });
    }
    if (!verified.verified) throw new InvalidSecondFactorError(MESSAGES.secondFactor.invalidPasskey);
    try {
      await this.factors.updatePasskeyCounter(
        session.licenseKeyHash,
        index,
        passkey.id,
        verified.authenticationInfo.newCounter,
      );
    } catch (error) {
      if (error instanceof SecondFactorChangedError)
        throw new ConflictError(MESSAGES.request.conflict, { cause: error });
      throw error;
    }
  }

  /**
   * The time step a code belongs to, if it is right for the secret within one step either side
   * (clock drift); else 'Code invalide'.
   */
  private acceptedStep(base32Secret: string, session: SessionContext, code: string): number {
    const totp = this.totpOf(Secret.fromBase32(base32Secret), session);
    const timestamp = this.clock.now().getTime();
    const delta = totp.validate({ token: code, timestamp, window: SECOND_FACTOR.totp.window });
    if (delta === null) throw new InvalidSecondFactorError();
    return Math.floor(timestamp / 1000 / SECOND_FACTOR.totp.periodSeconds) + delta;
  }

  private totpOf(secret: Secret, session: SessionContext): TOTP {
    return new TOTP({
      issuer: SECOND_FACTOR.issuer,
      label: this.userNameOf(session),
      algorithm: SECOND_FACTOR.totp.algorithm,
      digits: SECOND_FACTOR.totp.digits,
      period: SECOND_FACTOR.totp.periodSeconds,
      secret,
    });
  }

  /**
   * Who may enrol: a pending session only for a licence without a factor (an admin's first
   * sign-in); a full session any time, but changing an existing factor needs a recent check.
   */
  private async mayEnrol(session: SessionContext): Promise<SecondFactorRecord | null> {
    const record = await this.factors.get(session.licenseKeyHash);
    if (!isEnrolled(record)) return record;
    if (session.secondFactorPending) throw new ForbiddenError(MESSAGES.secondFactor.alreadyEnrolled);
    const checkedAt = session.secondFactorAt ? Date.parse(session.secondFactorAt) : 0;
    if (this.clock.now().getTime() - checkedAt > SECOND_FACTOR.stepUpMaxAgeSeconds * 1000)
      throw new SecondFactorRequiredError();
    return record;
  }

  private async reserveAttempt(session: SessionContext): Promise<void> {
    const { maxFailures, windowSeconds } = SECOND_FACTOR.codeThrottle;
    const reserved = await this.attempts.reserve(
      session.licenseKeyHash,
      this.nowSeconds(),
      maxFailures,
      windowSeconds,
    );
    if (!reserved) throw new TooManySecondFactorAttemptsError();
  }

  /**
   * The factor passed: the attempts are forgotten; a pending session gives way to a full one, a
   * full one records the time of the check.
   */
  private async passed(session: SessionContext): Promise<VerifySecondFactorReply> {
    await this.attempts.reset(session.licenseKeyHash);
    const verifiedAt = this.clock.now().toISOString();
    if (!session.secondFactorPending) {
      await this.sessions.markSecondFactor(session.sessionId, verifiedAt);
      return { verifiedAt };
    }
    await this.sessions.close(session.sessionId);
    const opened = await this.sessions.open(session.license, session.email, { secondFactorAt: verifiedAt });
    const lawyer =
      session.license.licenseType === 'admin'
        ? null
        : await findLawyerOfLicense(this.lawyers, session.license);
    const reply: VerifyLicenseReply = {
      valid: true,
      licenseType: session.license.licenseType,
      userEmail: session.email,
      displayName: displayNameOf(session.license.licenseType, lawyer),
      token: opened.token,
      expiresAt: opened.expiresAt,
    };
    return { verifiedAt, session: reply };
  }

  private firstFactorOf(session: SessionContext, recoveryCodes: string[]) {
    if (recoveryCodes.length === 0) return null;
    return {
      recoveryCodeHashes: recoveryCodes.map((code) =>
        this.vault.hashRecoveryCode(session.licenseKeyHash, normaliseRecoveryCode(code)),
      ),
      at: this.clock.now().toISOString(),
    };
  }

  private async saveChallenge(session: SessionContext, purpose: ChallengePurpose, challenge: string) {
    await this.challenges.put(
      session.sessionId,
      purpose,
      challenge,
      this.nowSeconds() + SECOND_FACTOR.challengeLifetimeSeconds,
    );
  }

  private async takeChallenge(session: SessionContext, purpose: ChallengePurpose): Promise<string> {
    const challenge = await this.challenges.take(session.sessionId, purpose, this.nowSeconds());
    if (!challenge) throw new InvalidInputError(null, MESSAGES.secondFactor.challengeExpired);
    return challenge;
  }

  /** What authenticator apps and passkey managers show for the licence. */
  private userNameOf(session: SessionContext): string {
    return session.email || displayNameOf(session.role, null);
  }

  private nowSeconds(): number {
    return Math.floor(this.clock.now().getTime() / 1000);
  }
}

/**
 * Removes a licence's factor and its attempt count, and ends its sessions: the licence enrols
 * again at its next sign-in. Shared by the admin's reset and the one-off command.
 */
export async function resetSecondFactorOf(
  factors: Pick<SecondFactors, 'delete'>,
  attempts: Pick<SecondFactorAttempts, 'reset'>,
  sessions: Pick<Sessions, 'deleteByLicense'>,
  keyHash: string,
): Promise<void> {
  await factors.delete(keyHash);
  await attempts.reset(keyHash);
  await sessions.deleteByLicense(keyHash);
}
