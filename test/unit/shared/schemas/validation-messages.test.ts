import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MESSAGES } from '../../../../shared/messages';
import { REPORT_FIELD_MESSAGES, REPORT_MESSAGES } from '../../../../shared/report-messages';
import { ROUTES, type RouteDefinition } from '../../../../shared/routes';
import { ExecuteWebhookRequest } from '../../../../shared/schemas/scheduler';

/** Every string of the message catalogue: a schema's own message comes from there. */
function catalogueStrings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap(catalogueStrings);
  return [];
}
// The completion report's refusals are its own catalogue (shared/report-messages.ts).
const CATALOGUE = new Set([
  ...catalogueStrings(MESSAGES),
  ...catalogueStrings(REPORT_MESSAGES),
  ...catalogueStrings(REPORT_FIELD_MESSAGES),
]);

/** The object schema of a route's body, through the wrappers zod puts around it. */
function objectShape(schema: z.ZodType): Record<string, z.ZodType> | null {
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> } })._zod.def;
  if (def.type === 'object') return def.shape as Record<string, z.ZodType>;
  for (const inner of [def.in, def.innerType, def.schema]) {
    if (inner) return objectShape(inner as z.ZodType);
  }
  return null;
}

const bodyRoutes = Object.entries(ROUTES as Record<string, RouteDefinition>).flatMap(([name, route]) => {
  const shape = route.request ? objectShape(route.request) : null;
  if (!route.request || !shape) return [];
  const required = Object.entries(shape)
    .filter(([, field]) => !field.safeParse(undefined).success)
    .map(([key]) => key);
  return required.map((field) => [name, field, route.request as z.ZodType] as const);
});

/** Issue 14 §11: French messages that name the field and agree with it. */
describe('validation messages', () => {
  it('covers routes with required fields', () => {
    expect(bodyRoutes.length).toBeGreaterThan(5);
  });

  it.each(bodyRoutes)(
    '%s: a body without %s is refused naming the field, in French',
    (_route, field, schema) => {
      const parsed = schema.safeParse({});
      expect(parsed.success).toBe(false);
      const issue = parsed.error?.issues.find((candidate) => candidate.path[0] === field);
      const message = issue?.message ?? '';
      expect(message, `aucune erreur pour ${field}`).not.toBe('');
      // The catalogue's own message where the route defines one, else the field named.
      if (!CATALOGUE.has(message)) expect(message).toBe(`Le champ ${field} est requis`);
    },
  );

  it.each(bodyRoutes)(
    '%s: %s of the wrong type is refused in French, never in English',
    (_route, field, schema) => {
      const parsed = schema.safeParse({ [field]: { inattendu: [1, 2] } });
      const message = parsed.error?.issues.find((candidate) => candidate.path[0] === field)?.message ?? '';
      expect(message).not.toMatch(/Invalid|expected|received|attendu,|reçu/);
      if (!CATALOGUE.has(message)) expect(message).toMatch(new RegExp(`^Le champ ${field}\\b`));
    },
  );

  it('answers the probe of the issue as the issue asks', () => {
    const parsed = ExecuteWebhookRequest.safeParse({});
    expect(parsed.error?.issues[0]?.message).toBe('Le champ workflowId est requis');
    expect(ExecuteWebhookRequest.safeParse({ workflowId: 42 }).error?.issues[0]?.message).toBe(
      'Le champ workflowId doit être une chaîne de caractères',
    );
  });

  it.each([
    [z.object({ n: z.number().int().min(2) }), { n: 1 }, 'Le champ n doit être supérieur ou égal à 2'],
    [z.object({ s: z.string().max(3) }), { s: 'abcd' }, 'Le champ s doit contenir au plus 3 caractères'],
    [z.object({ s: z.string().min(1) }), { s: '' }, 'Le champ s ne doit pas être vide'],
    [z.object({ e: z.email() }), { e: 'x' }, 'Le champ e doit être une adresse e-mail valide'],
    [z.object({ t: z.enum(['a', 'b']) }), { t: 'c' }, "Le champ t doit être l'une des valeurs 'a', 'b'"],
    [z.object({ l: z.array(z.string()) }), { l: [1] }, 'Le champ l[0] doit être une chaîne de caractères'],
    [z.strictObject({ a: z.string() }), { a: 'x', b: 1 }, "Le champ b n'est pas reconnu"],
    [z.object({ p: z.object({ q: z.boolean() }) }), { p: { q: 'oui' } }, 'Le champ p.q doit être un booléen'],
    [z.object({ a: z.string() }), 'texte', MESSAGES.request.notJson],
  ])('words each kind of issue: %#', (schema, input, message) => {
    expect(schema.safeParse(input).error?.issues[0]?.message).toBe(message);
  });
});
