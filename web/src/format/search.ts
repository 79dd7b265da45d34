/** Text as the searches compare it: without accents, in lower case. */
function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();
}

/**
 * Whether a search query matches any of the texts, ignoring case and accents ('resume' finds
 * 'Résumé'). A blank query matches everything.
 */
export function matchesSearch(query: string, texts: readonly (string | null | undefined)[]): boolean {
  const wanted = fold(query.trim());
  return !wanted || fold(texts.filter(Boolean).join(' ')).includes(wanted);
}
