import { describe, expect, it } from 'vitest';

import { CheckoutRequest } from '../../../../shared/schemas/billing';
import { FolderInput } from '../../../../shared/schemas/folder';

describe('CheckoutRequest', () => {
  it('accepts an e-mail and lower-cases it, with an optional promo code', () => {
    // Act
    const result = CheckoutRequest.safeParse({ email: ' Client@Example.com ', paymentType: 'initial' });

    // Assert
    expect(result).toEqual({ success: true, data: { email: 'client@example.com', paymentType: 'initial' } });
  });

  it.each([
    ['no e-mail', { paymentType: 'initial' }],
    ['an empty e-mail', { email: '', paymentType: 'initial' }],
    ['an address without domain', { email: 'client@', paymentType: 'initial' }],
  ])("refuses %s with 'Adresse email valide requise'", (_label, body) => {
    // Act
    const result = CheckoutRequest.safeParse(body);

    // Assert
    expect(result.error?.issues.map((issue) => issue.message)).toEqual(['Adresse email valide requise']);
  });

  it('refuses a payment type other than initial', () => {
    // Act
    const result = CheckoutRequest.safeParse({ email: 'client@example.com', paymentType: 'monthly' });

    // Assert
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['paymentType']);
  });
});

describe('FolderInput', () => {
  it('trims the name and stores an empty description as null', () => {
    // Act
    const folder = FolderInput.parse({ name: '  Dossier Dupont  ', description: '' });

    // Assert
    expect(folder).toEqual({ name: 'Dossier Dupont', description: null });
  });

  it('keeps a description that is given', () => {
    // Act
    const folder = FolderInput.parse({ name: 'Dossier Dupont', description: 'Succession' });

    // Assert
    expect(folder.description).toBe('Succession');
  });

  it.each([
    ['empty', ''],
    ['blank', '   '],
  ])('refuses a name that is %s', (_label, name) => {
    // Act
    const result = FolderInput.safeParse({ name });

    // Assert
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['name']);
  });
});
