import * as z from 'zod';

import { IsoTimestamp } from './common';

/** One entry of the admin audit trail: who did what, when, to what. */
export const AuditEntry = z.object({
  id: z.string(),
  at: IsoTimestamp,
  actorEmail: z.string(),
  action: z.string(),
  target: z.string(),
  /** The target's name (and a lawyer's e-mail) when it happened; null in older entries. */
  targetLabel: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;
