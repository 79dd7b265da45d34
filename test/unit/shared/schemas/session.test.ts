import { describe, expect, it } from 'vitest';

import { MESSAGES } from '../../../../shared/messages';
import { VerifyLicenseRequest } from '../../../../shared/schemas/session';

/** The message of the first issue of a refused input. */
const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues[0]?.message;

describe('VerifyLicenseRequest', () => {
  it('accepts a key of 5 characters and trims it', () => {
    // Act
    const result = VerifyLicenseRequest.safeParse({ licenseKey: '  ABCDE  ' });

    // Assert
    expect(result).toEqual({ success: true, data: { licenseKey: 'ABCDE' } });
  });

  it.each([
    ['is missing', {}],
    ['has 4 characters', { licenseKey: 'ABCD' }],
    ['has 4 characters once trimmed', { licenseKey: '  ABCD  ' }],
    ['is a number', { licenseKey: 12345 }],
    ['is null', { licenseKey: null }],
  ])("refuses a key that %s with 'La clé de licence est requise'", (_label, body) => {
    // Act
    const result = VerifyLicenseRequest.safeParse(body);

    // Assert
    expect(result.success).toBe(false);
    expect(firstMessage(result)).toBe('La clé de licence est requise');
    expect(firstMessage(result)).toBe(MESSAGES.login.keyRequired);
  });

  it('refuses a key longer than any licence key', () => {
    // Act
    const result = VerifyLicenseRequest.safeParse({ licenseKey: 'K'.repeat(129) });

    // Assert
    expect(firstMessage(result)).toBe(MESSAGES.login.invalidKey);
  });
});
