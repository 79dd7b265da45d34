/* Key formats of the second factor, all in the partition of the licence or session they belong to. */

/**
 * The second-factor codes of one licence in the current window: from browsers not remembered, or
 * (with `deviceId`) from one remembered browser, counted apart so that others cannot lock it out.
 */
export const secondFactorAttemptsKey = (keyHash: string, deviceId: string | null = null) => ({
  PK: `LICENSE#${keyHash}`,
  SK: deviceId === null ? 'SECOND_FACTOR_ATTEMPTS' : `SECOND_FACTOR_ATTEMPTS#DEVICE#${deviceId}`,
});
/** Sort-key prefix of every second-factor item of a licence (factor, attempt counts). */
export const SECOND_FACTOR_PREFIX = 'SECOND_FACTOR';
/** A browser that passed the licence's factor (device cookie), in the licence's partition. */
export const rememberedDeviceKey = (keyHash: string, deviceId: string) => ({
  PK: `LICENSE#${keyHash}`,
  SK: `${REMEMBERED_DEVICE_PREFIX}${deviceId}`,
});
export const REMEMBERED_DEVICE_PREFIX = 'DEVICE#';
/** The WebAuthn challenge a session was last given, beside the session. */
export const webAuthnChallengeKey = (sessionId: string, purpose: string) => ({
  PK: `SESSION#${sessionId}`,
  SK: `WEBAUTHN_CHALLENGE#${purpose}`,
});
