import type { Lawyer } from '../../../../shared';
import { matchesSearch } from '../../format/search';

/** Whether a lawyer matches a search over the given fields (spec §2). */
export function matchesLawyer(
  lawyer: Lawyer,
  query: string,
  fields: readonly (keyof Pick<Lawyer, 'firstName' | 'lastName' | 'email' | 'officeName'>)[],
): boolean {
  return matchesSearch(
    query,
    fields.map((field) => lawyer[field]),
  );
}
