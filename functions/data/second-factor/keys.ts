/* Key formats of the second factor, all in the partition of the licence or session they belong to. */

/** The wrong second-factor codes of one licence in the current window. */
export const secondFactorAttemptsKey = (keyHash: string) => ({
  PK: `LICENSE#${keyHash}`,
  SK: 'SECOND_FACTOR_ATTEMPTS',
});
/** The WebAuthn challenge a session was last given, beside the session. */
export const webAuthnChallengeKey = (sessionId: string, purpose: string) => ({
  PK: `SESSION#${sessionId}`,
  SK: `WEBAUTHN_CHALLENGE#${purpose}`,
});
