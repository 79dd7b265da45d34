import * as z from 'zod';

import { IsoTimestamp } from './common';

/** One entry of the admin audit trail: who did what, when, to what. */
export const AuditEntry = z.object({
  id: z.string(),
  at: IsoTimestamp,
  actorEmail: z.string(),
  action: z.string(),
  target: z.string(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;
