import * as z from 'zod';

import { EntityId, IsoTimestamp } from './common';

/** A folder groups the workflows of one client. */
export const Folder = z.object({
  id: EntityId,
  name: z.string(),
  description: z.string().nullable(),
  createdAt: IsoTimestamp,
  updatedAt: IsoTimestamp,
});
export type Folder = z.infer<typeof Folder>;

/** Create or update a folder: a name that is not blank once trimmed, an optional description. */
export const FolderInput = z.object({
  name: z.string().trim().min(1).max(200),
  description: z
    .string()
    .trim()
    .max(2000)
    .nullable()
    .optional()
    .transform((value) => value || null),
});
export type FolderInput = z.input<typeof FolderInput>;
