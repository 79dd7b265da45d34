import type { PasskeyRecord, SecondFactorRecord } from '../../domain/identity/ports';

/** A licence's second-factor item as a record (also for the reads that fetch it beside its licence). */
export function secondFactorFromItem(keyHash: string, item: Record<string, unknown>): SecondFactorRecord {
  const totp = item.totp as { secret: string; lastStep: number } | undefined;
  return {
    licenseKeyHash: keyHash,
    totp: totp ? { secret: totp.secret, lastStep: totp.lastStep } : null,
    pendingTotpSecret: (item.pendingTotpSecret as string | undefined) ?? null,
    passkeys: ((item.passkeys as PasskeyRecord[] | undefined) ?? []).map((passkey) => ({
      id: passkey.id,
      publicKey: passkey.publicKey,
      counter: passkey.counter,
      transports: passkey.transports ?? [],
      createdAt: passkey.createdAt,
    })),
    recoveryCodeHashes: [...((item.recoveryCodes as Set<string> | undefined) ?? [])],
    enrolledAt: (item.enrolledAt as string | undefined) ?? null,
  };
}
