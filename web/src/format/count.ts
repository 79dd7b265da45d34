/**
 * A count with its noun in French: the singular for 0 and 1 ('0 résultat', '1 résultat'), the
 * plural from 2 ('2 résultats'), as French grammar has it (not English's "0 results").
 */
export const frenchCount = (count: number, singular: string, plural: string) =>
  `${count} ${Math.abs(count) < 2 ? singular : plural}`;
