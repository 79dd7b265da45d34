import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import {
  foldText,
  matchesTerms,
  SEARCH_KEYS_PER_ITEM,
  searchKeyOf,
  searchKeys,
  searchTermsOf,
  searchText,
} from '../../../../functions/domain/directory/search-terms';

describe('search terms', () => {
  it("folds case and accents ('Équipe' and 'equipe' read alike)", () => {
    expect(foldText('Équipe Œuvre Straße')).toBe('equipe oeuvre strasse');
  });

  it('splits e-mails and punctuation into words', () => {
    expect(searchText(['Hélène', 'dupont@cabinet-lefevre.fr'])).toBe(' helene dupont cabinet lefevre fr');
  });

  it('keeps the query words no other word implies, the longest first among those looked up', () => {
    expect(searchTermsOf('cli Client 7 777')).toEqual({ words: ['client', '777'], keyed: ['client', '777'] });
    expect(searchTermsOf('***  😀 %')).toEqual({ words: [], keyed: [] });
    expect(searchTermsOf('a de').keyed).toEqual([]);
  });

  it('indexes an item under the first three letters of its words, a bounded number of them', () => {
    expect(searchKeys(['Relance dossier', 'Relances du client'])).toEqual(['rel', 'dos', 'cli']);
    const many = Array.from({ length: 200 }, (_, index) => `mot${index}x`).join(' ');
    expect(searchKeys([many]).length).toBeLessThanOrEqual(SEARCH_KEYS_PER_ITEM);
  });

  it('matches a query whose every word begins a word of the text, and only such', () => {
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^[a-zé]{1,8}$/), { minLength: 1, maxLength: 6 }),
        fc.nat(),
        (words, at) => {
          const text = searchText([words.join(' ')]);
          const word = foldText(words[at % words.length] as string);
          const prefix = word.slice(0, Math.max(1, word.length - 1));
          expect(matchesTerms(text, searchTermsOf(prefix))).toBe(true);
          expect(matchesTerms(text, searchTermsOf(`${word}zzzq`))).toBe(false);
        },
      ),
    );
  });

  it('looks a query word up under the key of the words it begins', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z0-9]{3,12}$/), fc.nat({ max: 9 }), (word, cut) => {
        const query = word.slice(0, Math.max(3, word.length - cut));
        expect(searchKeys([word])).toContain(searchKeyOf(query));
      }),
    );
  });
});
