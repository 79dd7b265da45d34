import * as z from 'zod';

import { MESSAGES } from '../messages';
import { EntityId, IsoTimestamp } from './common';

/** Total, Actives, Planifiées of a set of automations (a folder's, a lawyer's, everyone's). */
export const FlagCounts = z.object({
  total: z.number().int(),
  active: z.number().int(),
  scheduled: z.number().int(),
});
export type FlagCounts = z.infer<typeof FlagCounts>;

/** A folder groups the workflows of one client; `counts` are its automations', kept by the server. */
export const Folder = z.object({
  id: EntityId,
  name: z.string(),
  description: z.string().nullable(),
  counts: FlagCounts.default({ total: 0, active: 0, scheduled: 0 }),
  createdAt: IsoTimestamp,
  updatedAt: IsoTimestamp,
});
export type Folder = z.infer<typeof Folder>;

/** Create or update a folder: a name that is not blank once trimmed, an optional description. */
export const FolderInput = z.object({
  name: z.string().trim().min(1, MESSAGES.validation.folderName).max(200),
  description: z
    .string()
    .trim()
    .max(2000)
    .nullable()
    .optional()
    .transform((value) => value || null),
});
export type FolderInput = z.input<typeof FolderInput>;
