/**
 * Completion reports, replays and a firm's data export: ours, in the product's voice. Apart from
 * `MESSAGES` so that /login's bundle, which carries that catalogue, does not carry these; one
 * constant per use, so that a function's bundle carries only the texts it says.
 */
export const REPORT_MESSAGES = {
  /** The reply to an accepted report. */
  accepted: 'Compte rendu enregistré',
  /** The history, beside the delivery. */
  history: {
    success: (summary: string) => `Terminé : ${summary}`,
    failure: (error: string) => `Échec signalé par le workflow : ${error}`,
    missing: 'Sans compte rendu',
  },
  /** The health's word for a delivered run whose workflow reported a failure. */
  processingFailed: 'Réception OK, traitement en échec',
  processingFailure: (error: string) => `Réception OK, traitement en échec : ${error}`,
  /** Refusals of POST /api/reports/{token}: each says what is wrong and changes nothing. */
  refused: {
    unknownLink:
      "Lien de compte rendu inconnu : utilisez l'adresse `report.url` reçue dans le corps du webhook",
    expired: "Lien de compte rendu expiré : un compte rendu est accepté pendant 24 heures après l'exécution",
    alreadyReported: 'Un compte rendu a déjà été reçu pour cette exécution : il est accepté une seule fois',
    otherRun:
      'Ce compte rendu nomme une autre exécution (runId) que son lien : utilisez le `report.url` du même corps de webhook',
    workflowGone: "L'automatisation de cette exécution n'existe plus",
  },
} as const;

/**
 * A report's fields refused by its schema (400), each naming the field. Apart from the rest: the
 * route table, in every function's bundle, carries these only.
 */
export const REPORT_FIELD_MESSAGES = {
  status: "Le champ status doit valoir 'success' ou 'failure'",
  summary: 'Le champ summary est requis (texte de 1 à 500 caractères)',
  items: 'Le champ items doit être un nombre entier positif ou nul',
  error: 'Le champ error doit être un texte de 2000 caractères au plus',
  runId: 'Le champ runId doit être le texte `report.runId` reçu dans le corps du webhook',
} as const;

/** 'Tester la connexion', when the call succeeded: did the workflow report its end? */
export const REPORT_TEST_MESSAGES = {
  reported: 'Compte rendu reçu : le workflow signale bien la fin de son traitement.',
  reportedFailure: (error: string) => `Compte rendu reçu, mais le workflow signale un échec : ${error}`,
  notReported: (seconds: number) =>
    `Aucun compte rendu reçu dans les ${seconds} secondes : ajoutez à la fin du workflow le nœud « HTTP Request » qui appelle report.url (voir la recette n8n).`,
} as const;

export const REPLAY_MESSAGES = {
  done: 'Exécution rejouée',
  /** A run without its own webhook-id (recorded before replays existed) cannot be sent again as itself. */
  notReplayable:
    "Cette exécution ne peut pas être rejouée : elle a été enregistrée avant l'ajout de cette fonction",
  notFound: 'Exécution introuvable',
  notARun: 'Un test de connexion ne se rejoue pas : utilisez « Tester la connexion »',
  cancelled: "Une exécution annulée n'a pas été envoyée : il n'y a rien à rejouer",
  licenseInactive: 'Exécution non rejouée : la licence du cabinet est inactive',
} as const;

export const EXPORT_MESSAGES = {
  started: 'Export de vos données en préparation : le lien de téléchargement apparaîtra ici',
  alreadyRunning: 'Un export des données de ce cabinet est déjà en préparation : attendez la fin de celui-ci',
  notFound: 'Export introuvable',
  lawyerRequired: "Choisissez l'avocat dont les données sont à exporter (champ lawyerId)",
  lawyerNotFound: 'Avocat introuvable',
  noProfile:
    "Aucun profil n'est associé à votre licence : complétez d'abord la configuration de votre compte",
  failed: "L'export des données a échoué : relancez-le ; s'il échoue encore, contactez le support",
  expired: 'Le lien de cet export a expiré (valable 1 heure) : relancez un export',
} as const;

/** No dead-lettered run refused (the resend's default). */
const NONE_NOT_SENT = { workflowDeleted: 0, licenseInactive: 0 } as const;

/** 'Relancer les exécutions en échec', in the scheduler's voice: only the resend says these. */
export const REDRIVE_MESSAGES = {
  /** A dead-lettered run an admin resent, not sent because its firm's licence is inactive (its history). */
  notResentLicenseInactive: 'Exécution non renvoyée : la licence du cabinet est inactive',
  /**
   * Dead-lettered runs sent back, and those that could not be, with why (their automation deleted,
   * their firm's licence inactive).
   */
  redriven: (
    moved: number,
    notSent: { workflowDeleted: number; licenseInactive: number } = NONE_NOT_SENT,
  ) => {
    const refused = notSent.workflowDeleted + notSent.licenseInactive;
    const sent =
      moved > 0
        ? `${moved} exécution(s) en échec renvoyée(s) dans la file d'exécution`
        : refused > 0
          ? 'Aucune exécution renvoyée'
          : 'Aucune exécution en échec à relancer';
    if (refused === 0) return sent;
    const why = [
      ...(notSent.workflowDeleted > 0
        ? [`${notSent.workflowDeleted} dont l'automatisation a été supprimée`]
        : []),
      ...(notSent.licenseInactive > 0
        ? [`${notSent.licenseInactive} dont la licence du cabinet est inactive`]
        : []),
    ];
    return `${sent} ; ${refused} non renvoyée(s) : ${why.join(', ')}`;
  },
} as const;
