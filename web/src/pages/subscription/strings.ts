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
    cancelHint: 'La résiliation est immédiate.',
  },
  cancelModal: {
    title: "Résilier l'abonnement ?",
    text:
      'La résiliation est immédiate : votre licence devient inactive et vous serez déconnecté. ' +
      'Un e-mail de confirmation vous est envoyé. Vos données sont conservées 30 jours, ' +
      'puis supprimées ; la réactivation passe par le support. Vos factures restent accessibles ' +
      'par « Gérer mon abonnement » sur la page de connexion.',
    confirm: 'Résilier',
    dismiss: 'Annuler',
    close: 'Fermer',
  },
  /** Announced by screen readers when a link opens a new tab. */
  newTab: '(ouvre un nouvel onglet)',
} as const;
