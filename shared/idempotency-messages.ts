/**
 * A create's Idempotency-Key refused. Apart from `MESSAGES` so that the functions without a create
 * do not carry these.
 */
export const IDEMPOTENCY_MESSAGES = {
  /** Same voice as `MESSAGES.request`: the header is not a key the API takes. */
  invalidKey:
    'En-tête « Idempotency-Key » invalide : de 8 à 100 lettres, chiffres, tirets ou soulignés sont attendus.',
  /** The key was first sent with another request. */
  keyReused:
    'Cette clé « Idempotency-Key » a déjà servi pour une autre demande : envoyez cette demande avec une nouvelle clé.',
} as const;
