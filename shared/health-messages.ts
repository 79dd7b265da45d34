/**
 * Automation health: states, the automatic pause, the connection test and the alert
 * e-mails. Ours, in the product's voice. Apart from `MESSAGES` so that /login's bundle, which
 * carries that catalogue, does not carry these.
 */
export const HEALTH_MESSAGES = {
  states: {
    healthy: 'En bonne santé',
    degraded: 'Dégradée',
    failing: 'En échec',
    paused: 'Suspendue',
  },
  /** The reason of an automatic pause, shown on the card and sent in the alerts. */
  pauseReason: (failures: number, lastMessage: string) =>
    `Suspendue après ${failures} échecs consécutifs — dernier message : ${lastMessage}`,
  /** Added to a reason or a test result when n8n answered 404. */
  inactiveHint: 'Le workflow n8n est probablement inactif, ou le chemin du webhook est erroné.',
  resumed: 'Planification reprise',
  resumeFailed: 'Impossible de reprendre la planification',
  /** Resuming a workflow that is not paused. */
  notPaused: "Cette automatisation n'est pas suspendue",
  testSucceeded: (status: number | null) =>
    status === null ? 'Connexion réussie' : `Connexion réussie (HTTP ${status})`,
  testFailed: 'Échec du test de connexion',
  /** The message recorded in the history for a test call. */
  testRecorded: (outcome: string) => `Test de connexion : ${outcome}`,
  settingsSaved: 'Réglages de santé enregistrés',
  email: {
    pausedSubject: (name: string) => `Assistant IA juridique : automatisation « ${name} » suspendue`,
    paused: (name: string, failures: number) =>
      `L'automatisation « ${name} » a été suspendue après ${failures} échecs consécutifs : ses exécutions planifiées sont arrêtées.`,
    lastError: (message: string) => `Dernier message : ${message}`,
    link: (url: string) => `Pour la consulter, tester sa connexion et la reprendre : ${url}`,
    oncePerDay: "Vous ne recevrez pas d'autre alerte pour cette automatisation aujourd'hui.",
    digestSubject: (count: number) => `Assistant IA juridique : ${count} automatisation(s) en échec`,
    digestIntro: 'Les automatisations suivantes sont en échec ou suspendues :',
    digestLine: (name: string, state: string, failures: number, message: string) =>
      `- ${name} (${state}, ${failures} échec(s) consécutif(s)) : ${message}`,
    /** After the longest streaks, when the digest does not list them all. */
    digestMore: (count: number) => `- et ${count} autre(s), à voir sur la page ci-dessous.`,
  },
} as const;
