/** Texts of /admin/settings (spec §2 'Paramètres Administrateur'). */
export const ADMIN_SETTINGS_TEXT = {
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
    columns: { at: 'Date', actor: 'Auteur', action: 'Action', target: 'Cible' },
    actions: {
      'lawyer.create': 'Avocat créé',
      'lawyer.update': 'Avocat modifié',
      'lawyer.delete': 'Avocat supprimé',
      'lawyer.purge': 'Données supprimées (30 jours après la résiliation)',
      'lawyer.secrets.reveal': 'Identifiants affichés',
      'workflow.create': 'Automatisation créée',
      'workflow.update': 'Automatisation modifiée',
      'workflow.delete': 'Automatisation supprimée',
      'workflow.toggle-active': 'Automatisation activée / désactivée',
      'workflow.toggle-scheduling': 'Planification activée / désactivée',
      'folder.create': 'Dossier créé',
      'folder.update': 'Dossier modifié',
      'folder.delete': 'Dossier supprimé',
    } as Record<string, string>,
  },
} as const;
