import type { Lawyer } from '../../../../shared';

/** Case- and accent-insensitive search over the given fields of a lawyer (spec §2). */
export function matchesLawyer(
  lawyer: Lawyer,
  query: string,
  fields: readonly (keyof Pick<Lawyer, 'firstName' | 'lastName' | 'email' | 'officeName'>)[],
): boolean {
  const fold = (text: string) =>
    text
      .normalize('NFD')
      .replace(/\p{Diacritic}/gu, '')
      .toLowerCase();
  const wanted = fold(query.trim());
  return !wanted || fold(fields.map((field) => lawyer[field] ?? '').join(' ')).includes(wanted);
}
