/** Texts of /admin/settings (spec §2 'Paramètres Administrateur'). */
export const ADMIN_SETTINGS_TEXT = {
  healthLoading: 'Chargement de la santé des automatisations',
  title: 'Paramètres Administrateur',
  description: 'Le planificateur des automatisations et le journal des actions des administrateurs.',
  statusError: "L'état du planificateur n'a pas pu être chargé",
  retry: 'Réessayer',
  scheduler: {
    title: 'Planificateur',
    run: 'Déclencher Maintenant',
    forced: 'Exécution forcée',
    forcedHint:
      'Efface la dernière exécution de chaque automatisation active et planifiée avant de lancer : toutes partent maintenant.',
  },
  lastResult: {
    manual: 'Dernier déclenchement manuel',
    schedule: 'Dernière exécution automatique',
    success: 'Succès',
    failure: 'Échec',
    processed: (processed: number, checked: number) => `${processed} / ${checked}`,
    processedLabel: 'Automatisations traitées / vérifiées',
    succeeded: 'Réussies',
    failed: 'Échouées',
    queued: 'En file',
    /** Under the counts when the result follows only some of its runs (a few per due-index shard). */
    followed: (listed: number, processed: number) =>
      `Réussies, échouées et en file : sur ${listed} des ${processed} exécutions, suivies jusqu’à leur fin`,
    time: 'Heure',
    never: 'Jamais',
    message: 'Message',
  },
  status: {
    title: 'État du planificateur',
    active: 'ACTIF',
    interval: 'Intervalle',
    intervalValue: '1 min',
    concurrency: 'Exécutions simultanées (max.)',
    explanation:
      'Toutes les automatisations actives et planifiées sont vérifiées chaque minute ; celles dont l’intervalle est écoulé sont exécutées.',
  },
  deadLetters: {
    title: 'Exécutions en échec',
    description:
      'Les appels qui ont échoué après toutes les tentatives attendent ici ; renvoyez-les une fois le problème corrigé.',
    count: 'En attente',
    unavailable: 'Non disponible',
    redrive: 'Relancer les exécutions en échec',
  },
  audit: {
    title: "Journal d'audit",
    description:
      'Chaque modification faite par un administrateur, chaque affichage des identifiants d’un avocat et chaque suppression de données 30 jours après une résiliation.',
    loading: 'Chargement du journal',
    empty: 'Aucune action enregistrée',
    more: 'Charger plus',
    moreFailed: "La suite du journal n'a pas pu être chargée",
    columns: { at: 'Date', entry: 'Action' },
    /** The author: the admin's e-mail; 'admin' (a licence without e-mail) and the retention job by name. */
    authors: { admin: 'Un administrateur', 'rétention automatique': 'La rétention automatique' } as Record<
      string,
      string
    >,
    adminAuthor: (email: string) => `L'administrateur ${email}`,
    /** One verb phrase per action, completed by the target's name ("a créé l'avocat …"). */
    verbs: {
      'lawyer.create': "a créé l'avocat",
      'lawyer.update': "a modifié l'avocat",
      'lawyer.delete': "a supprimé l'avocat",
      'lawyer.purge': "a supprimé, 30 jours après la résiliation, les données de l'avocat",
      'lawyer.secrets.reveal': "a affiché les identifiants Google de l'avocat",
      'license.second-factor.reset': 'a réinitialisé la vérification en deux étapes de',
      'license.role.notary': 'a fait passer en licence notaire',
      'license.role.lawyer': 'a fait passer en licence avocat',
      'license.email.resend': 'a renvoyé par e-mail la clé de licence de',
      'workflow.create': "a créé l'automatisation",
      'workflow.update': "a modifié l'automatisation",
      'workflow.delete': "a supprimé l'automatisation",
      'workflow.activate': "a activé l'automatisation",
      'workflow.deactivate': "a désactivé l'automatisation",
      'workflow.schedule': "a activé la planification de l'automatisation",
      'workflow.unschedule': "a arrêté la planification de l'automatisation",
      // Entries written before the trail said which way a switch went.
      'workflow.toggle-active': "a activé ou désactivé l'automatisation",
      'workflow.toggle-scheduling': "a activé ou désactivé la planification de l'automatisation",
      'workflow.resume': "a repris la planification de l'automatisation suspendue",
      'health.settings.update': 'a modifié les réglages de santé des automatisations :',
      'folder.create': 'a créé le dossier',
      'folder.update': 'a modifié le dossier',
      'folder.delete': 'a supprimé le dossier',
    } as Record<string, string>,
    /** A target of an entry written before names were kept. */
    unnamed: (target: string) => `(${target}, nom non conservé)`,
  },
} as const;
