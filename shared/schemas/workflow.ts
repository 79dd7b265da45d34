import * as z from 'zod';

import { FORM_BOUNDS, WORKFLOW_TYPES } from '../constants';
import { MESSAGES } from '../messages';
import { EmailAddress, EntityId, HttpUrl, IsoTimestamp } from './common';

export const WorkflowTypeSchema = z.enum(WORKFLOW_TYPES);

/** Scheduling settings of a workflow (client-side cronSettings, spec §3). */
export const CronSettings = z.object({
  enabled: z.boolean(),
  interval: z.number().int().nullable(),
  lastRun: IsoTimestamp.nullable(),
  nextRun: IsoTimestamp.nullable(),
});
export type CronSettings = z.infer<typeof CronSettings>;

/** A workflow (automation) as the API returns it. */
export const Workflow = z.object({
  id: EntityId,
  name: z.string(),
  description: z.string(),
  webhookUrl: z.string(),
  lawyerEmail: z.string(),
  active: z.boolean(),
  type: WorkflowTypeSchema,
  folderId: EntityId.nullable(),
  cronSettings: CronSettings,
  tags: z.array(z.string()).optional(),
  category: z.string().nullable().optional(),
  createdAt: IsoTimestamp,
  updatedAt: IsoTimestamp,
});
export type Workflow = z.infer<typeof Workflow>;

/** Tags differing only by case or spacing are one tag: the first spelling stays. */
function distinctTags(tags: readonly string[]): string[] {
  const seen = new Set<string>();
  return tags.filter((tag) => {
    const key = tag.toLocaleLowerCase('fr');
    if (!tag || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * A workflow's tags, free labels an admin sets (spec §3 optional display fields): trimmed, blank
 * ones dropped, repeats merged; at most 10 of at most 30 characters.
 */
export const WorkflowTags = z
  .array(z.string().trim().max(FORM_BOUNDS.workflowTagLengthMax, MESSAGES.validation.workflowTags))
  .max(FORM_BOUNDS.workflowTagsMax, MESSAGES.validation.workflowTags)
  .transform(distinctTags);

/** A workflow's category, free text (spec §3 optional display field); blank means none (null). */
export const WorkflowCategoryText = z
  .string()
  .trim()
  .max(FORM_BOUNDS.workflowCategoryLengthMax, MESSAGES.validation.workflowCategory)
  .nullable()
  .transform((value) => value || null);

/** Create a workflow: it starts active, with scheduling off and the fixed interval of its type. */
export const WorkflowCreateInput = z.object({
  name: z.string().trim().min(FORM_BOUNDS.workflowNameMin, MESSAGES.validation.workflowName).max(200),
  description: z
    .string()
    .trim()
    .min(FORM_BOUNDS.workflowDescriptionMin, MESSAGES.validation.workflowDescription)
    .max(2000),
  webhookUrl: HttpUrl(MESSAGES.execution.invalidWebhookUrl),
  lawyerEmail: EmailAddress(MESSAGES.validation.lawyerEmail),
  type: WorkflowTypeSchema,
  folderId: EntityId.nullable().optional(),
  // Absent: none on a create, unchanged on an update.
  tags: WorkflowTags.optional(),
  category: WorkflowCategoryText.optional(),
});
export type WorkflowCreateInput = z.infer<typeof WorkflowCreateInput>;

/** Update a workflow (admin): any of its editable fields. */
export const WorkflowUpdateInput = WorkflowCreateInput.partial().extend({
  cronEnabled: z.boolean().optional(),
  cronInterval: z
    .number()
    .int()
    .min(1)
    .max(60 * 24 * 31)
    .optional(),
});
export type WorkflowUpdateInput = z.infer<typeof WorkflowUpdateInput>;

/** The automation form of the admin dialog (spec §3 "Automation form", §5 rules). */
export const AutomationForm = z.object({
  templateType: WorkflowTypeSchema,
  name: z.string().trim().min(FORM_BOUNDS.workflowNameMin, MESSAGES.validation.workflowName),
  description: z
    .string()
    .trim()
    .min(FORM_BOUNDS.workflowDescriptionMin, MESSAGES.validation.workflowDescription),
  // The form's message for any address that is not http(s); the server says 'URL du webhook invalide'.
  webhookUrl: z.url({ protocol: /^https?$/, message: MESSAGES.validation.url }),
  lawyerEmail: z.email(MESSAGES.validation.lawyerEmail),
  enableCron: z.boolean().default(true),
});
export type AutomationForm = z.infer<typeof AutomationForm>;
