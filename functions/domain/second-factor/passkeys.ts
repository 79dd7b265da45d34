import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';

import { SECOND_FACTOR } from '../../../shared/constants';
import { MESSAGES } from '../../../shared/messages';
import type {
  EnrolmentReply,
  PasskeyOptionsReply,
  PublicKeyCredentialJson,
} from '../../../shared/schemas/second-factor';
import { createSecondFactorVault, type SecondFactorVault } from '../../security/second-factor-secrets';
import { ConflictError, InvalidInputError, InvalidSecondFactorError, NotFoundError } from '../core/errors';
import type { PasskeyRecord, SecondFactorRecord } from '../identity/ports';
import { isEnrolled } from '../identity/second-factor-step';
import type { SessionContext } from '../identity/sessions';
import { type Browser, nowSecondsOf, type SecondFactorDeps } from './context';
import { mayChangeFactors, mayRemove, recoveryCodesFor, userNameOf } from './enrolment';
import { FactorPassing, factorChanged } from './passing';
import {
  type ChallengePurpose,
  SecondFactorChangedError,
  type SecondFactors,
  type WebAuthnChallenges,
} from './ports';

/**
 * Passkeys (WebAuthn, @simplewebauthn/server): registration and authentication options with a
 * challenge kept beside the session (taken once), the answers verified against the site's relying
 * party, the signature counter kept; removal.
 */
export class PasskeyFactor {
  private readonly factors: SecondFactors;
  private readonly challenges: WebAuthnChallenges;
  private readonly vault: SecondFactorVault;

  constructor(private readonly deps: SecondFactorDeps) {
    this.factors = deps.factors;
    this.challenges = deps.challenges;
    this.vault = createSecondFactorVault(deps.keys);
  }

  /** Registration options for a new passkey of the caller's licence. */
  async registrationOptions(session: SessionContext): Promise<PasskeyOptionsReply> {
    const record = await mayChangeFactors(this.factors, this.deps.clock, session);
    if ((record?.passkeys.length ?? 0) >= SECOND_FACTOR.maxPasskeys)
      throw new InvalidInputError(null, MESSAGES.secondFactor.tooManyPasskeys);
    const relyingParty = this.deps.settings.relyingParty();
    const userName = userNameOf(session);
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

  /**
   * Registers the passkey the browser created for the last registration options: the session
   * passes the factor, and every other session of the licence ends.
   */
  async register(
    session: SessionContext,
    credential: PublicKeyCredentialJson,
    browser: Browser,
  ): Promise<{ reply: EnrolmentReply; cookie: string }> {
    const record = await mayChangeFactors(this.factors, this.deps.clock, session);
    const challenge = await this.takeChallenge(session, 'registration');
    const relyingParty = this.deps.settings.relyingParty();
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
      createdAt: this.deps.clock.now().toISOString(),
    };
    const { codes, firstFactor } = recoveryCodesFor(record, this.vault, this.deps.clock, session);
    try {
      await this.factors.addPasskey(session.licenseKeyHash, passkey, SECOND_FACTOR.maxPasskeys, firstFactor);
    } catch (error) {
      if (error instanceof SecondFactorChangedError)
        throw new ConflictError(MESSAGES.request.conflict, { cause: error });
      throw error;
    }
    const passed = await new FactorPassing(this.deps).passed(session, browser);
    await factorChanged(this.deps, session.licenseKeyHash, passed);
    return { reply: { recoveryCodes: codes, ...passed.reply }, cookie: passed.cookie };
  }

  /** Options to sign in (or step up) with one of the licence's passkeys. */
  async authenticationOptions(session: SessionContext): Promise<PasskeyOptionsReply> {
    const record = await this.factors.get(session.licenseKeyHash);
    if (!record || record.passkeys.length === 0)
      throw new InvalidInputError(null, MESSAGES.secondFactor.notEnrolled);
    const options = await generateAuthenticationOptions({
      rpID: this.deps.settings.relyingParty().id,
      allowCredentials: record.passkeys.map((passkey) => ({
        id: passkey.id,
        transports: passkey.transports,
      })),
      userVerification: 'preferred',
    });
    await this.saveChallenge(session, 'authentication', options.challenge);
    return { options: { ...options } };
  }

  /** Checks a passkey's answer to the session's last authentication challenge; keeps its counter. */
  async check(
    session: SessionContext,
    record: SecondFactorRecord,
    credential: PublicKeyCredentialJson,
  ): Promise<void> {
    const challenge = await this.takeChallenge(session, 'authentication');
    const index = record.passkeys.findIndex((passkey) => passkey.id === credential.id);
    const passkey = record.passkeys[index];
    if (!passkey) throw new InvalidSecondFactorError(MESSAGES.secondFactor.invalidPasskey);
    const relyingParty = this.deps.settings.relyingParty();
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

  /** Removes one passkey (after a recent check); every other session of the licence ends. */
  async remove(session: SessionContext, passkeyId: string): Promise<void> {
    const record = await mayChangeFactors(this.factors, this.deps.clock, session);
    const index = record?.passkeys.findIndex((passkey) => passkey.id === passkeyId) ?? -1;
    if (!record || index < 0) throw new NotFoundError(MESSAGES.secondFactor.passkeyNotFound);
    const last = record.totp === null && record.passkeys.length === 1;
    mayRemove(record, this.deps.settings, session, last);
    try {
      await this.factors.removePasskey(session.licenseKeyHash, index, passkeyId, last);
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

  private async saveChallenge(session: SessionContext, purpose: ChallengePurpose, challenge: string) {
    await this.challenges.put(
      session.sessionId,
      purpose,
      challenge,
      nowSecondsOf(this.deps.clock) + SECOND_FACTOR.challengeLifetimeSeconds,
    );
  }

  private async takeChallenge(session: SessionContext, purpose: ChallengePurpose): Promise<string> {
    const challenge = await this.challenges.take(session.sessionId, purpose, nowSecondsOf(this.deps.clock));
    if (!challenge) throw new InvalidInputError(null, MESSAGES.secondFactor.challengeExpired);
    return challenge;
  }
}
