import { describe, expect, it } from 'vitest';

import { displayNameOf } from '../../../../functions/domain/identity/sign-in';
import { lawyerRecord } from '../../../support/records';

describe('displayNameOf', () => {
  it("names an admin 'Administrateur', even with a profile", () => {
    expect(displayNameOf('admin', null)).toBe('Administrateur');
    expect(displayNameOf('admin', lawyerRecord())).toBe('Administrateur');
  });

  it('names a lawyer after his profile', () => {
    // Arrange
    const lawyer = lawyerRecord({ firstName: 'Camille', lastName: 'Martin' });

    // Act + Assert
    expect(displayNameOf('lawyer', lawyer)).toBe('Camille Martin');
  });

  it("names a lawyer without profile 'Avocat'", () => {
    expect(displayNameOf('lawyer', null)).toBe('Avocat');
  });

  it('names a notary after his profile, or like a lawyer without one', () => {
    // Arrange
    const notary = lawyerRecord({ firstName: 'Louis', lastName: 'Bernard' });

    // Act + Assert
    expect(displayNameOf('notary', notary)).toBe('Louis Bernard');
    expect(displayNameOf('notary', null)).toBe('Avocat');
  });
});
