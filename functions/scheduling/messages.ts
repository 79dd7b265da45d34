import { MESSAGES } from '../../shared/messages';

/**
 * Texts the scheduling adds to `MESSAGES.scheduler` and `MESSAGES.execution` (same voice as the
 * spec's §8). They live here until the lead moves them into `shared/messages.ts`.
 */
export const SCHEDULING_MESSAGES = {
  /** A due run handed to the queue; the call follows within seconds. */
  queued: "Mis en file d'exécution",
  /** A run due within the next minute, handed to the queue with a delay. */
  queuedWithDelay: (seconds: number) => `Mis en file d'exécution, appel dans ${seconds} s`,
  /** The queue refused the run; its slot stays due for the next tick. */
  queueFailed: "Échec de la mise en file d'exécution : nouvel essai à la prochaine minute",
  /** The slot of a due run could not be claimed (the table failed); it stays due for the next tick. */
  claimFailed: "Échec de la réservation de l'exécution : nouvel essai à la prochaine minute",
  /** The result's error when some runs could not be queued. */
  someQueueFailures: (failed: number) =>
    MESSAGES.scheduler.error(`${failed} workflow(s) n'ont pas pu être mis en file d'exécution`),
  /** A lawyer's workflow that the administrator has not activated cannot be run. */
  workflowInactive: "Automatisation inactive : en attente d'activation par l'administrateur",
  /** A second manual run of one workflow within the lock of spec §9 (30 seconds). */
  manualRunLocked: 'Exécution déjà lancée il y a moins de 30 secondes. Veuillez patienter.',
  /** A workflow without a webhook address cannot be run (spec §4: only when an address exists). */
  noWebhookUrl: MESSAGES.execution.invalidWebhookUrl,
  /** Dead-lettered runs sent back. */
  redriven: (moved: number) =>
    moved === 0
      ? 'Aucune exécution en échec à relancer'
      : `${moved} exécution(s) en échec renvoyée(s) dans la file d'exécution`,
} as const;
