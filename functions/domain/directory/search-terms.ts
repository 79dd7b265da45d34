/**
 * How the directory's searches read text (automations by name and description; lawyers by first
 * name, last name, e-mail and office name; folders by name): case and accents folded away, split
 * into words of letters and digits. A query matches an item when each of its words begins a word
 * of the item ('equ dup' finds 'Équipe Dupont'). Pure: the storage of these words is the data
 * layer's (functions/data/directory/search-index.ts).
 */

/** The length of the word beginnings the index is keyed by; shorter query words only filter. */
export const SEARCH_KEY_LENGTH = 3;

/** The most index keys one item gets: its first distinct word beginnings, in reading order. */
export const SEARCH_KEYS_PER_ITEM = 40;

/** Letters without their accents, in lower case: 'Équipe' and 'equipe' read alike. */
export function foldText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/œ/g, 'oe')
    .replace(/æ/g, 'ae')
    .replace(/ß/g, 'ss');
}

/** The distinct folded words of texts, in reading order; anything but letters and digits separates. */
export function searchWords(texts: readonly (string | null | undefined)[]): string[] {
  const words = texts.flatMap((text) => foldText(text ?? '').split(/[^\p{L}\p{N}]+/u));
  return [...new Set(words.filter(Boolean))];
}

/**
 * The text an item is searched in: its words, each after a space, so that "a word begins with
 * `t`" is "the text contains ` t`" (DynamoDB's `contains`).
 */
export function searchText(texts: readonly (string | null | undefined)[]): string {
  return searchWords(texts)
    .map((word) => ` ${word}`)
    .join('');
}

/** The index keys of an item: the beginnings of its words long enough to have one. */
export function searchKeys(texts: readonly (string | null | undefined)[]): string[] {
  const keys = searchWords(texts)
    .filter((word) => [...word].length >= SEARCH_KEY_LENGTH)
    .map(searchKeyOf);
  return [...new Set(keys)].slice(0, SEARCH_KEYS_PER_ITEM);
}

/** The index key a word (of an item or of a query) is found under. */
export function searchKeyOf(word: string): string {
  return [...word].slice(0, SEARCH_KEY_LENGTH).join('');
}

/**
 * A search as the server runs it: the query's distinct words, without those another word of the
 * query already implies ('cli' beside 'client'); `keyed` are those long enough to be looked up
 * in the index, the longest first. No words: the query holds nothing searchable ('***', '😀').
 */
export interface SearchTerms {
  readonly words: readonly string[];
  readonly keyed: readonly string[];
}

export function searchTermsOf(query: string): SearchTerms {
  const all = searchWords([query]);
  const words = all.filter((word) => !all.some((other) => other !== word && other.startsWith(word)));
  const keyed = words
    .filter((word) => [...word].length >= SEARCH_KEY_LENGTH)
    .sort((a, b) => [...b].length - [...a].length);
  return { words, keyed };
}

/** Whether an item's search text (`searchText`) holds every word of the terms at a word's start. */
export function matchesTerms(text: string, terms: SearchTerms): boolean {
  return terms.words.every((word) => text.includes(` ${word}`));
}
