import { describe, expect, it } from 'vitest';

import {
  createSecondFactorVault,
  generateRecoveryCodes,
  normaliseRecoveryCode,
} from '../../../functions/security/second-factor-secrets';
import { MESSAGES } from '../../../shared/messages';
import { RecoveryCode, TotpCode, VerifySecondFactorRequest } from '../../../shared/schemas/second-factor';
import { newLicenseKeys } from '../../support/records';

describe('second-factor vault', () => {
  it('encrypts a TOTP secret so that only the same licence decrypts it', () => {
    // Arrange
    const vault = createSecondFactorVault(newLicenseKeys());
    const secret = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

    // Act
    const first = vault.encryptTotpSecret('licence-a', secret);
    const second = vault.encryptTotpSecret('licence-a', secret);

    // Assert
    expect(first).not.toContain(secret);
    expect(first).not.toBe(second);
    expect(vault.decryptTotpSecret('licence-a', first)).toBe(secret);
    // A ciphertext copied onto another licence's item does not decrypt there.
    expect(() => vault.decryptTotpSecret('licence-b', first)).toThrow();
    expect(() => createSecondFactorVault(newLicenseKeys()).decryptTotpSecret('licence-a', first)).toThrow();
  });

  it('hashes recovery codes per licence and under the server key', () => {
    // Arrange
    const keys = newLicenseKeys();
    const vault = createSecondFactorVault(keys);

    // Act
    const hash = vault.hashRecoveryCode('licence-a', 'ABCDEFGHJK');

    // Assert
    expect(vault.hashRecoveryCode('licence-a', 'ABCDEFGHJK')).toBe(hash);
    expect(vault.hashRecoveryCode('licence-b', 'ABCDEFGHJK')).not.toBe(hash);
    expect(createSecondFactorVault(newLicenseKeys()).hashRecoveryCode('licence-a', 'ABCDEFGHJK')).not.toBe(
      hash,
    );
    expect(hash).not.toContain('ABCDEFGHJK');
  });

  it('gives each licence its own stable WebAuthn user handle', () => {
    const vault = createSecondFactorVault(newLicenseKeys());
    expect(vault.webAuthnUserId('licence-a')).toEqual(vault.webAuthnUserId('licence-a'));
    expect(vault.webAuthnUserId('licence-a')).not.toEqual(vault.webAuthnUserId('licence-b'));
  });
});

describe('recovery codes', () => {
  it('are 10 distinct codes without look-alike characters', () => {
    const codes = generateRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[A-HJ-NP-Z2-9]{5}-[A-HJ-NP-Z2-9]{5}$/);
  });

  it.each([
    ['abcde-fghjk', 'ABCDEFGHJK'],
    [' ABCDE FGHJK ', 'ABCDEFGHJK'],
    ['ABCDEFGHJK', 'ABCDEFGHJK'],
  ])('reads %j as %s', (typed, stored) => {
    expect(normaliseRecoveryCode(typed)).toBe(stored);
    expect(RecoveryCode.parse(typed)).toBe(stored);
  });

  it("refuses a code of the wrong length with 'Code invalide'", () => {
    expect(RecoveryCode.safeParse('ABCD-EFGH').error?.issues[0]?.message).toBe(
      MESSAGES.secondFactor.invalidCode,
    );
  });
});

describe('authenticator codes', () => {
  it.each([
    ['123456', '123456'],
    ['123 456', '123456'],
    [' 012345 ', '012345'],
  ])('reads %j as %s', (typed, read) => {
    expect(TotpCode.parse(typed)).toBe(read);
  });

  it.each(['12345', '1234567', '12a456', ''])("refuses %j with 'Code invalide'", (typed) => {
    expect(TotpCode.safeParse(typed).error?.issues[0]?.message).toBe(MESSAGES.secondFactor.invalidCode);
  });

  it("asks for the code when it is missing: 'Le code est requis'", () => {
    const parsed = VerifySecondFactorRequest.safeParse({ method: 'totp' });
    expect(parsed.error?.issues[0]?.message).toBe(MESSAGES.secondFactor.codeRequired);
  });

  it('refuses an unknown method', () => {
    expect(VerifySecondFactorRequest.safeParse({ method: 'sms', code: '123456' }).success).toBe(false);
  });
});
