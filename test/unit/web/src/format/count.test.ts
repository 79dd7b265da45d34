import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { frenchCount } from '../../../../../web/src/format/count';
import { ADMIN_LAWYERS_TEXT as LAWYERS } from '../../../../../web/src/pages/admin-lawyers/strings';

describe('counts in French', () => {
  it('takes the singular for zero and one, the plural from two', () => {
    expect(frenchCount(0, 'résultat', 'résultats')).toBe('0 résultat');
    expect(frenchCount(1, 'résultat', 'résultats')).toBe('1 résultat');
    expect(frenchCount(2, 'résultat', 'résultats')).toBe('2 résultats');
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 1_000_000 }), (count) =>
        frenchCount(count, 'résultat', 'résultats').endsWith('résultats'),
      ),
    );
  });

  it("says '0 résultat' on the lawyers' search", () => {
    expect(LAWYERS.matches(0)).toBe('0 résultat');
  });
});
