/** Texts of 'Gestion de l'abonnement' (/lawyer/settings and /subscription, spec §2, §4). */
export const SUBSCRIPTION_TEXT = {
  title: "Gestion de l'abonnement",
  description: 'Votre licence, votre abonnement mensuel et son prochain prélèvement.',
  loading: "Chargement de l'abonnement",
  retry: 'Réessayer',
  signInRequired: {
    header: 'Connexion requise',
    text: 'Connectez-vous avec votre clé de licence pour consulter et gérer votre abonnement.',
    action: 'Se connecter',
  },
  membersOnly: {
    header: 'Réservé aux licences avocat',
    text: "Les licences administrateur n'ont pas d'abonnement à gérer.",
  },
  details: {
    title: 'Mon abonnement',
    status: 'Statut',
    licenseKey: 'Clé de licence',
    nextDebit: 'Prochain prélèvement',
  },
  pricing: {
    title: 'Tarifs',
    initial: 'Paiement initial',
    monthly: 'Abonnement mensuel',
    inclTax: 'TTC',
    perMonth: 'par mois, prélevé automatiquement',
    dueAtPurchase: (total: string, initial: string, monthly: string) =>
      `À l'achat : ${total} TTC (licence ${initial} + premier mois ${monthly}), puis ${monthly} TTC chaque mois.`,
    noCommitment: "Sans engagement, résiliable à tout moment depuis l'application.",
  },
  purchase: 'Acheter une licence',
  actions: {
    title: 'Actions',
    refresh: 'Actualiser',
    refreshHint: "Relit l'état de votre abonnement auprès du service de paiement.",
    portal: 'Portail client',
    portalHint: 'Moyen de paiement, factures et abonnement.',
    associate: 'Associer la licence à mon e-mail',
    associateHint:
      "Rattache cette licence à l'adresse e-mail de votre compte. Les factures et les e-mails de l'abonnement restent envoyés à l'adresse de facturation, celle de l'achat.",
    cancel: "Résilier l'abonnement",
    cancelHint: "Le renouvellement s'arrête ; l'accès reste ouvert jusqu'à la fin du mois payé.",
  },
  cancelModal: {
    title: "Résilier l'abonnement ?",
    text: (accessUntil: string | null) =>
      "Le renouvellement s'arrête dès maintenant : aucun prélèvement ne sera plus effectué. " +
      (accessUntil
        ? `Vous gardez l'accès jusqu'au ${accessUntil}, fin de la période mensuelle payée, `
        : "Vous gardez l'accès jusqu'à la fin de la période mensuelle payée, ") +
      "et vous pourrez réactiver l'abonnement d'un clic jusqu'à cette date. " +
      'Un e-mail de confirmation vous est envoyé. Vos données sont conservées 30 jours après la fin ' +
      "de l'accès, puis supprimées.",
    confirm: 'Résilier',
    dismiss: 'Annuler',
    close: 'Fermer',
  },
  scheduledCancellation: {
    /** Shown wherever the subscription is shown while a cancellation is scheduled. */
    header: (accessUntil: string) => `Résiliation programmée : accès jusqu'au ${accessUntil}`,
    text: 'Aucun prélèvement ne sera plus effectué. Vos données sont conservées 30 jours après cette date, puis supprimées.',
    reactivate: "Réactiver l'abonnement",
    reactivated: 'Abonnement réactivé : il se renouvellera chaque mois comme avant.',
    nextDebit: 'Aucun (résiliation programmée)',
  },
  /** Announced by screen readers when a link opens a new tab. */
  newTab: '(ouvre un nouvel onglet)',
} as const;
