/**
 * The French message catalogue (spec §5 and §8). Every text a user can read that is not a page's
 * own copy comes from here, character for character as the spec gives it. Messages marked
 * "same voice" are ours, written where the spec names a case without giving its text.
 */
/** 'n mise(s) en file sur m workflow(s) vérifié(s)', agreeing in number. */
const queuedRuns = (queued: number, checked: number) =>
  `${queued} ${queued > 1 ? 'mises' : 'mise'} en file sur ${checked} ${checked > 1 ? 'workflows vérifiés' : 'workflow vérifié'}`;

/** A list call's refused parameter, naming it and what is expected. */
const invalidParameter = (name: string, expected: string) =>
  `Paramètre « ${name} » invalide : ${expected} est attendu.`;

export const MESSAGES = {
  login: {
    keyRequired: 'La clé de licence est requise',
    verifyFailed: 'Erreur lors de la vérification de la clé de licence',
    invalidKey: 'Clé de licence invalide',
    unexpected: 'Erreur lors de la connexion',
    connectingButton: 'Connexion en cours...',
    signedInAs: (name: string) => `Connecté en tant que ${name}`,
    signedOut: 'Déconnecté avec succès',
    /** Same voice: the client has made too many wrong attempts. */
    tooManyAttempts: 'Trop de tentatives. Veuillez réessayer dans quelques minutes.',
  },
  session: {
    /** Same voice: no session, an expired one or one ended by 'Déconnexion'. */
    required: 'Session expirée ou invalide. Veuillez vous reconnecter.',
    /** Same voice: the licence behind the session is no longer active. */
    licenseInactive: 'Licence inactive. Accès suspendu.',
    /** Same voice: the role of the session may not use this call. */
    forbidden: 'Accès refusé',
  },
  secondFactor: {
    /** Same voice: the title of the second sign-in step. */
    title: 'Vérification en deux étapes',
    /** Same voice: a session opened by the licence key alone, on any other call than the second factor's. */
    pendingSession: 'Vérification en deux étapes requise. Veuillez vous reconnecter.',
    /** Same voice: a wrong authenticator code or recovery code. */
    invalidCode: 'Code invalide',
    /** Same voice: a passkey answer that does not verify. */
    invalidPasskey: "Clé d'accès non reconnue",
    /** Same voice: too many wrong codes for this licence. */
    tooManyAttempts: 'Trop de tentatives. Veuillez réessayer dans quelques minutes.',
    /** Same voice: a sensitive action whose last second-factor check is too old. */
    stepUpRequired: 'Confirmez votre identité avec votre second facteur pour continuer.',
    /** Same voice: enrolment from a pending session when the licence already has a factor. */
    alreadyEnrolled: 'Une vérification en deux étapes est déjà configurée pour cette licence.',
    /** Same voice: a check asked of a licence without any factor. */
    notEnrolled: "Aucune vérification en deux étapes n'est configurée pour cette licence.",
    /** Same voice: no TOTP enrolment was started, or it was replaced. */
    noPendingEnrolment: 'Aucune configuration en cours. Veuillez générer un nouveau QR code.',
    /** Same voice: a WebAuthn challenge that was used, expired or never issued. */
    challengeExpired: 'La demande a expiré. Veuillez recommencer.',
    /** Same voice: the licence already holds the most passkeys it may. */
    tooManyPasskeys: "Nombre maximal de clés d'accès atteint.",
    /** Same voice: an admin resetting his own factor through the API. */
    ownReset:
      'Vous ne pouvez pas réinitialiser votre propre second facteur : demandez-le à un autre administrateur (dernier administrateur : commande bin/create-admin-licence.ts --reset-second-factor).',
    /** Same voice: the licence key of a reset names no licence. */
    licenseNotFound: 'Licence introuvable',
    /** Same voice: the code field is empty or malformed. */
    codeRequired: 'Le code est requis',
    /** Same voice: the remembered browser named is not (or no longer) one of the licence's. */
    browserNotFound: 'Navigateur introuvable',
    /** Same voice: removing the last factor of a licence that must keep one (an admin licence). */
    lastFactorRequired:
      'Une licence administrateur doit garder au moins un second facteur : ajoutez-en un autre avant de retirer celui-ci.',
    /** Same voice: the passkey named is not one of the licence's. */
    passkeyNotFound: "Clé d'accès introuvable",
  },
  request: {
    /** Same voice: the request body is not JSON. */
    notJson: 'Requête invalide : le corps doit être un objet JSON.',
    /** Same voice: the request body is too large. */
    tooLarge: 'Requête trop volumineuse.',
    /** Same voice: a field of the request is missing or wrong. */
    invalid: 'Requête invalide.',
    /** The `cursor` of a list call is not one the server gave this user for this list and search. */
    invalidCursor: 'Curseur invalide',
    /** Same voice: the search `q` of a list call is longer than the searches take. */
    searchTooLong: 'Paramètre « q » trop long : 200 caractères au plus.',
    /** Same voice: the `folderId` of a list call is not a folder's identifier. */
    invalidFolderId: invalidParameter('folderId', 'un identifiant de dossier'),
    /** Same voice: the `active` of a list call is neither true nor false. */
    invalidActive: invalidParameter('active', 'true ou false'),
    /** Same voice: the `scheduled` of a list call is neither true nor false. */
    invalidScheduled: invalidParameter('scheduled', 'true ou false'),
    /** Same voice: the `health` of a list call is not a health the list is kept to. */
    invalidHealthFilter: invalidParameter('health', 'paused ou failing'),
    /** Same voice: the `lawyerEmail` of a list call is not an e-mail address. */
    invalidLawyerEmail: 'Paramètre « lawyerEmail » invalide : une adresse e-mail est attendue.',
    /** Same voice: the `type` of a list call is not a type of automation. */
    invalidWorkflowType: invalidParameter(
      'type',
      'client_management, document_classification ou client_reminder',
    ),
    /** Same voice: the `limit` of a list call is not a whole number within the bounds. */
    invalidLimit: invalidParameter('limit', 'un nombre entier de 1 à 100'),
    /** Same voice: the `ids` of a health look-up are not 1 to 50 automation ids. */
    invalidIds:
      "Paramètre « ids » invalide : de 1 à 50 identifiants d'automatisation, séparés par des virgules, sont attendus.",
    /** Same voice: no such call. */
    notFound: 'Ressource introuvable.',
    /** Same voice: the method is not served on this path. */
    methodNotAllowed: 'Méthode non autorisée.',
    /** Same voice: a concurrent request changed the same data (the request can be sent again). */
    conflict: 'Les données ont été modifiées en même temps par une autre requête. Veuillez réessayer.',
    /** Same voice: the database is unreachable, throttled or timing out; the request may be sent again. */
    storeUnavailable: 'Service momentanément indisponible, réessayez dans quelques secondes',
    /** Same voice: an unexpected server failure, never with details. */
    internal: 'Erreur interne du serveur. Veuillez réessayer.',
    /** Same voice: a request that did not come through the site (CloudFront), refused. */
    directAccess: 'Accès direct refusé : l’API ne répond qu’au travers du site.',
  },
  purchase: {
    checkoutFailed: 'Erreur lors de la création du paiement',
    noCheckoutUrl: 'Erreur: aucune URL de paiement reçue',
    emailInvalid: 'Adresse email valide requise',
    redirecting: 'Redirection vers le paiement...',
    /** Same voice: the promotion code is unknown, expired or used up. */
    promoInvalid: 'Code promo invalide ou expiré',
  },
  directory: {
    loadNotariesFailed: (message?: string) =>
      message
        ? `Erreur lors du chargement des notaires: ${message}`
        : 'Erreur lors du chargement des notaires',
    deleteNotaryFailed: 'Erreur lors de la suppression du notaire',
    notaryDeleted: 'Notaire supprimé avec succès!',
    deleteLawyerFailed: "Erreur lors de la suppression de l'avocat",
    lawyerDeleted: (name: string) => `L'avocat ${name} a été supprimé.`,
    noLawyerFound: 'Aucun avocat trouvé',
    /** Same voice: the lawyer id names no lawyer. */
    lawyerNotFound: 'Avocat introuvable',
  },
  lawyerSave: {
    updateFailed: (reason: string) => `Erreur lors de la mise à jour de l'avocat: ${reason}`,
    createFailed: (reason: string) => `Erreur lors de la création de l'avocat: ${reason}`,
    saveFailed: "Erreur lors de la sauvegarde de l'avocat",
    created: (first: string, last: string) => `Dossier créé pour ${first} ${last}`,
    /** Same voice: the e-mail or the licence key already belongs to another lawyer. */
    conflict: 'Un avocat utilise déjà cet email ou cette clé de licence',
    /** Same voice: 'Nouvel avocat' with the e-mail or licence key of an existing lawyer. */
    alreadyExists: (first: string, last: string, email: string) =>
      `${first} ${last} (${email}) utilise déjà cet email ou cette clé de licence`,
    /** Same voice: the success of an update, where a creation says 'Dossier créé pour …'. */
    updated: (first: string, last: string) => `Avocat ${first} ${last} mis à jour`,
    /** Same voice: the lawyer was changed by someone else between the read and the write. */
    changed: "L'avocat a été modifié entre-temps. Veuillez réessayer.",
    /** Same voice: a masked licence key (`NOTARY-••••1234`) sent back as a key. */
    maskedLicenseKey:
      'Clé de licence masquée : saisissez la clé en entier, ou laissez le champ vide pour la garder.',
    /** Same voice: the licence key given for a lawyer belongs to an administrator licence. */
    notLawyerLicense: "Cette clé de licence n'est pas une licence d'avocat",
  },
  /** The admin's change of a licence between lawyer and notary (ours, same voice). */
  licenseRole: {
    invalid: 'Type de licence invalide : choisissez avocat ou notaire',
    noLicense: "Cet avocat n'a pas de licence : enregistrez-lui d'abord une clé de licence",
    changed: (role: string) => `Licence passée en licence ${role}`,
    failed: 'Impossible de changer le type de licence. Veuillez réessayer.',
  },
  /** The admin sends a lawyer's licence key again by e-mail. */
  licenseEmail: {
    noLicense: "Cet avocat n'a pas de licence : aucune clé à renvoyer",
    noAddress: "Cette licence n'a pas d'adresse e-mail : la clé ne peut pas être renvoyée",
    tooSoon: "Une clé vient déjà d'être renvoyée à cette adresse : réessayez dans quelques minutes.",
    sent: (to: string) => `Clé de licence renvoyée à ${to}`,
    failed: 'Impossible de renvoyer la clé par e-mail. Veuillez réessayer.',
  },
  profile: {
    loadFailed: 'Erreur lors du chargement de vos informations',
    saveFailed: "Erreur lors de l'enregistrement de vos informations",
    saveFailedUnexpected: "Une erreur s'est produite lors de l'enregistrement de vos informations",
    saved: 'Vos informations de compte ont été enregistrées',
  },
  workflow: {
    createFailed: "Erreur lors de la création de l'automatisation",
    updateFailed: "Erreur lors de la mise à jour de l'automatisation",
    deleteFailed: "Erreur lors de la suppression de l'automatisation",
    fetchFailed: "Erreur lors de la récupération de l'automatisation",
    schedulingUpdateFailed: 'Erreur lors de la mise à jour de la planification',
    toggleActiveFailed: "Erreur lors de l'activation/désactivation de l'automatisation",
    toggleSchedulingFailed: "Erreur lors de l'activation/désactivation de la planification",
    schedulingStateFailed: "Erreur lors du changement d'état de la planification",
    schedulingStatusFailed: 'Erreur lors du changement de statut de la planification',
    schedulingChangeFailed: 'Erreur lors du changement de planification',
    executeFailed: "Erreur lors de l'exécution de l'automatisation",
    executeWorkflowFailed: (message: string) => `Erreur lors de l'exécution du workflow: ${message}`,
    dataUpdateFailed: 'Erreur lors de la mise à jour des données',
    dataLoadFailed: 'Erreur lors du chargement des données',
    listLoadFailed: 'Erreur lors du chargement des automatisations',
    noneForAccount: 'Aucune automatisation trouvée pour votre compte',
    lawyersLoadFailed: 'Impossible de charger la liste des avocats',
    unknownLawyer: "L'avocat sélectionné n'existe pas dans notre base de données",
    created: 'Automatisation créée',
    updated: 'Automatisation mise à jour',
    deleted: 'Automatisation supprimée',
    executed: 'Automatisation exécutée avec succès',
    workflowExecuted: 'Workflow exécuté avec succès',
    activated: 'Automatisation activée',
    deactivated: 'Automatisation désactivée avec succès',
    schedulingEnabled: 'Planification activée avec succès',
    schedulingDisabled: 'Planification désactivée avec succès',
    /** Same voice: the workflow id names no workflow. */
    notFound: 'Automatisation introuvable',
    /** Same voice: the workflow was changed by someone else between the read and the write. */
    changed: "L'automatisation a été modifiée entre-temps. Veuillez réessayer.",
    /** Same voice: the folder chosen for a workflow does not exist. */
    unknownFolder: "Le dossier sélectionné n'existe pas",
  },
  folder: {
    /** Same voice: the folder id names no folder. */
    notFound: 'Dossier introuvable',
  },
  execution: {
    /** Same voice: a queued or retried run not called, because scheduling was switched off meanwhile. */
    cancelledUnscheduled: 'Exécution annulée : la planification a été désactivée entre-temps',
    /** Same voice: the same, because the automation was deactivated meanwhile. */
    cancelledInactive: "Exécution annulée : l'automatisation a été désactivée entre-temps",
    invalidWebhookUrl: 'URL du webhook invalide',
    connectionError: (message: string) => `Erreur de connexion: ${message}`,
    noResponse: 'Aucune réponse reçue du serveur',
    notFound: "Webhook introuvable - vérifiez l'URL",
    serverError: 'Erreur serveur du webhook - vérifiez la configuration',
    forbidden: 'Accès refusé au webhook - vérifiez les permissions',
    other: (message: string) => `Erreur d'exécution: ${message}`,
    /** Same voice: the call took longer than the time-out. */
    timeout: "Délai d'attente dépassé : le webhook n'a pas répondu à temps",
    /** Same voice: the webhook address leads to a private or reserved network. */
    privateAddress: 'Adresse du webhook refusée : elle mène à un réseau privé ou réservé',
    /** Same voice: a 404 from n8n means the production webhook is not registered (workflow inactive there). */
    notFoundInactive: "Webhook introuvable - vérifiez l'URL (workflow inactif dans n8n ?)",
    /** Same voice: a 3xx answer; redirects are never followed, one could lead inside our network. */
    redirectRefused: "Erreur d'exécution: redirection refusée",
    /** Same voice: details given to `connectionError(…)`, by cause. */
    connection: {
      refused: 'connexion refusée',
      hostNotFound: 'nom de domaine introuvable',
      dnsUnavailable: 'résolution DNS momentanément impossible',
      noAddress: 'aucune adresse trouvée pour ce nom',
      unreachable: 'hôte injoignable',
      tls: 'certificat TLS invalide',
      /** The secure connection failed for another reason (a server that does not speak https). */
      tlsFailed: 'connexion sécurisée (TLS) impossible',
      unknown: 'erreur inconnue',
    },
    /** Same voice: a lawyer's workflow that the administrator has not activated cannot be run. */
    workflowInactive: "Automatisation inactive : en attente d'activation par l'administrateur",
    /** Same voice: a second manual run of one workflow within the 30-second lock (spec §9). */
    manualRunLocked: 'Exécution déjà lancée il y a moins de 30 secondes. Veuillez patienter.',
  },
  scheduler: {
    error: (message: string) => `Erreur du planificateur: ${message}`,
    noResponse: 'Aucune réponse du planificateur',
    errorBanner: (message?: string) => `❌ Erreur: ${message ?? 'Erreur inconnue'}`,
    unexpected: "Erreur inattendue lors de l'exécution du planificateur",
    failed: "Erreur lors de l'exécution du planificateur",
    /**
     * The spec's 'Planificateur: …' and 'Exécution forcée: …', saying what a run did: it queues
     * runs, their calls follow (their results reach the history and the last result as they end).
     */
    summary: (queued: number, checked: number) => `Planificateur: ${queuedRuns(queued, checked)}`,
    /**
     * A forced run leaves what a run claimed within the last minute (its call is queued already):
     * the summary says how many, or a '0 mise en file' would read as nothing done.
     */
    forcedSummary: (queued: number, checked: number, alreadyQueued = 0) =>
      `Exécution forcée: ${queuedRuns(queued, checked)}${
        alreadyQueued > 0 ? ` (${alreadyQueued} déjà en file depuis moins d'une minute)` : ''
      }`,
    /** Same voice: a due run handed to the queue; the call follows within seconds. */
    queued: "Mis en file d'exécution",
    /** Same voice: a run due within the next minute, handed to the queue with a delay. */
    queuedWithDelay: (seconds: number) => `Mis en file d'exécution, appel dans ${seconds} s`,
    /** Same voice: the queue refused the run; its slot stays due for the next tick. */
    queueFailed: "Échec de la mise en file d'exécution : nouvel essai à la prochaine minute",
    /** Same voice: the slot of a due run could not be claimed; it stays due for the next tick. */
    claimFailed: "Échec de la réservation de l'exécution : nouvel essai à la prochaine minute",
    /** Same voice: the result's error when some runs could not be queued. */
    someQueueFailures: (failed: number) =>
      `Erreur du planificateur: ${failed} workflow(s) n'ont pas pu être mis en file d'exécution`,
    /** An admin's run answered before every shard was done: the rest completes its last result. */
    withShardsPending: (message: string, shards: number) =>
      `${message} (${shards} lot(s) encore en cours : actualisez la page dans un instant pour le résultat complet)`,
    /** Same voice: an admin's run whose claimers of some due-index shards never answered. */
    shardsNotRun: (shards: number) =>
      `Erreur du planificateur: ${shards} lot(s) de workflows non traités, relancez l'exécution`,
  },
  promo: {
    createFailed: 'Impossible de créer le code promo',
    copyFailed: 'Impossible de copier le code',
    created: 'Code promo créé !',
    copied: 'Copié !',
  },
  subscription: {
    checkFailed: "Erreur lors de la vérification de l'abonnement",
    portalFailed: "Erreur lors de l'ouverture du portail de gestion",
    noLicenseKey: 'Aucune clé de licence trouvée',
    updateLicenseFailed: 'Impossible de mettre à jour la licence. Veuillez réessayer.',
    fetchFailed: "Impossible de récupérer les informations d'abonnement",
    cancelFailed: "Impossible de résilier l'abonnement. Veuillez réessayer ou contacter le support.",
    customerPortalFailed: "Impossible d'ouvrir le portail client",
    /** The reply to request-portal-link, the same whether or not a licence has this e-mail. */
    portalLinkSent: 'Si un abonnement est facturé à cette adresse, vous y recevrez un lien par e-mail.',
    statusRefreshed: "Statut d'abonnement mis à jour",
    licenseUpdated: 'Licence mise à jour',
    canceled: 'Abonnement résilié',
    reactivateFailed: "Impossible de réactiver l'abonnement. Veuillez réessayer ou contacter le support.",
    noLicense: 'Aucune licence trouvée',
    noLicenseDetail: 'Vous devez acheter une licence pour accéder à',
    overdueTitle: 'Paiement en retard',
    overdueDetail:
      'Votre abonnement mensuel est en retard. Gérez votre abonnement pour éviter la suspension.',
    undefinedDate: 'Non défini',
    /** Ours, to Stripe (never shown to a user): a 409 while the event is being applied elsewhere. */
    webhookBusy: 'Événement en cours de traitement : il sera appliqué à la prochaine livraison.',
  },
  dates: {
    invalid: 'Date invalide',
  },
  validation: {
    /** Same voice: a folder needs a name. */
    folderName: 'Le nom du dossier est requis',
    workflowName: 'Le nom doit contenir au moins 3 caractères',
    workflowDescription: 'La description doit contenir au moins 10 caractères',
    url: 'Veuillez entrer une URL valide',
    lawyerEmail: 'Veuillez sélectionner un avocat',
    noLawyerAvailable: "Aucun client disponible. Veuillez d'abord créer un client.",
    firstName: 'Le prénom doit contenir au moins 2 caractères',
    lastName: 'Le nom doit contenir au moins 2 caractères',
    email: 'Email invalide',
    mainEmail: 'Email principal invalide',
    phoneNumber: 'Le numéro de téléphone doit contenir au moins 10 chiffres',
    officeName: "Le nom de l'étude doit contenir au moins 2 caractères",
    /** Ours (spec §3 names tags and category as display fields only): the field, then the rule. */
    workflowTags: 'Les étiquettes sont limitées à 10, de 30 caractères au plus chacune',
    workflowCategory: 'La catégorie doit contenir au plus 40 caractères',
    googlePassword: 'Le mot de passe Google est requis',
    required: 'Required',
    /** Same voice: the automatic pause's threshold. */
    pauseAfterFailures: "Le nombre d'échecs avant suspension doit être un entier entre 1 et 50",
    alertEmail: "Adresse e-mail d'alerte invalide",
  },
} as const;
