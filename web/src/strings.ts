import { frenchCount } from './format/count';

/**
 * The interface's own French texts: labels, titles and page copy. Messages shared with the server
 * (errors, toasts) come from `MESSAGES` in `shared/messages.ts`; Cloudscape's own texts from its
 * French catalogue through `I18nProvider`. Long legal and marketing copy lives beside its page
 * (`pages/discover/discover-content.ts`, `pages/privacy/privacy-content.ts`).
 */
export const STRINGS = {
  product: {
    name: 'Assistant IA Juridique',
    logoAlt: 'Logo Assistant IA Juridique',
  },
  /** While a page's code arrives (each page is loaded on first visit). */
  pageLoading: {
    status: 'Chargement…',
    failed: "La page n'a pas pu être chargée. Vérifiez votre connexion puis rechargez la page.",
    reload: 'Recharger la page',
  },
  roles: {
    admin: 'Administrateur',
    lawyer: 'Avocat',
    other: 'Utilisateur',
  },
  topNavigation: {
    signOut: 'Déconnexion',
    openMenu: 'Afficher le menu',
    closeMenu: 'Masquer le menu',
    signIn: 'Se connecter',
    discover: 'Découvrir',
    mySpace: 'Mon espace',
  },
  navigation: {
    /** Title of the sidebar, per role. */
    spaces: { admin: 'Administration', lawyer: 'Espace avocat', notary: 'Espace notaire' },
    /** Name of the sidebar landmark. */
    landmark: 'Menu principal',
    welcome: 'Bienvenue',
    workflows: 'Automatisations',
    lawyers: 'Avocats',
    testPromo: 'Code promo test',
    settings: 'Paramètres',
    subscription: 'Abonnement',
    privacy: 'Confidentialité',
    accountConfig: 'Configuration compte',
    googleEcosystem: 'Écosystème Google',
    planning: 'Planification',
  },
  notifications: {
    dismiss: 'Fermer la notification',
  },
  api: {
    /** The server could not be reached at all. */
    networkError: 'Le serveur est injoignable. Vérifiez votre connexion et réessayez.',
    /** The server answered with something the client does not understand. */
    badReply: 'Réponse inattendue du serveur.',
  },
  landing: {
    title: 'Bienvenue sur votre Assistant IA Juridique',
    tagline: "L'assistant intelligent conçu pour votre cabinet d'avocats",
    introduction:
      'Tri des e-mails, dossiers clients, relances, classement des pièces et agenda des audiences : ' +
      "l'assistant prend en charge le suivi administratif de vos dossiers, vous gardez le temps pour le droit.",
    start: 'Commencer maintenant',
    featuresTitle: 'Ce que l’assistant fait pour vous',
    features: [
      {
        title: 'Automatisation intelligente',
        text:
          'Les e-mails reçus sont traités, chaque client obtient son dossier structuré, les pièces sont analysées, ' +
          'renommées et converties en PDF, les questions fréquentes reçoivent une réponse.',
      },
      {
        title: 'Sécurisé et conforme',
        text:
          'Une solution auto-hébergée et conforme au RGPD : vos données et celles de vos clients restent ' +
          'sous votre contrôle, dans votre propre compte Google.',
      },
      {
        title: 'Gain de temps',
        text:
          "Relances des clients, suivi des pièces manquantes et dates d'audience dans l'agenda : " +
          "les tâches répétitives s'exécutent seules, à la fréquence que vous choisissez.",
      },
    ],
    ctaTitle: 'Prêt à gagner du temps ?',
    ctaText: 'Connectez-vous avec votre clé de licence pour accéder à votre espace.',
    ctaButton: 'Accéder à mon espace',
  },
  login: {
    title: 'Connexion',
    description: 'Connectez-vous avec votre clé de licence.',
    licenseKeyLabel: 'Clé de licence',
    licenseKeyPlaceholder: 'NOTARY-XXXXXXXX',
    submit: 'Se connecter',
    poweredBy: 'Propulsé par',
    discover: 'Découvrir',
    getLicense: 'Obtenir votre licence',
    noLicenseYet: 'Pas encore de licence ?',
    externalLinkLabel: '(ouvre un nouvel onglet)',
  },
  purchase: {
    title: 'Obtenir votre licence',
    description:
      'Indiquez votre adresse e-mail : votre clé de licence personnelle vous sera envoyée après le paiement.',
    emailLabel: 'Adresse email',
    emailPlaceholder: 'vous@cabinet.fr',
    promoCodeLabel: 'Code promo',
    promoCodeOptional: 'facultatif',
    initialPayment: 'Paiement initial',
    monthlySubscription: 'Puis abonnement mensuel',
    perMonth: 'par mois',
    dueToday: (total: string, initial: string, monthly: string) =>
      `À payer aujourd'hui : ${total} TTC (licence ${initial} + premier mois ${monthly}), puis ${monthly} TTC par mois.`,
    inclTax: 'TTC',
    noCommitment: 'Sans engagement, résiliable à tout moment depuis l’application.',
    submit: 'Procéder au paiement',
    backToLogin: 'Retour à la connexion',
  },
  /** The customer portal for a firm that cannot sign in: a link e-mailed to the billing address. */
  portalLink: {
    // The rest of the form's texts are in its own lazily loaded chunk (portal-link-form.tsx).
    open: 'Gérer mon abonnement',
    title: 'Gérer mon abonnement',
  },
  paymentSuccess: {
    title: 'Paiement réussi !',
    activated: 'Votre licence a été activée.',
    emailed:
      'Votre clé de licence vous sera envoyée par e-mail dans quelques minutes. ' +
      'Pensez à vérifier vos courriers indésirables (spam).',
    keepSafe: 'Conservez-la précieusement : elle vous permet de vous connecter à votre espace.',
    signInNow: 'Se connecter maintenant',
  },
  notFound: {
    code: '404',
    title: 'Page non trouvée',
    text: "La page demandée n'existe pas ou a été déplacée.",
    back: "Retour à l'accueil",
  },
  discover: {
    watchDemos: 'Voir les démos vidéo',
    getStarted: 'Commencer',
    privacyLink: 'Politique de Confidentialité',
  },
  privacy: {
    title: 'Politique de Confidentialité',
    lastUpdated: (date: string) => `Dernière mise à jour : ${date}`,
    back: 'Retour',
    companyTitle: 'Éditeur',
    registrationNumber: 'Immatriculation',
    postalAddress: 'Adresse postale',
    contactEmail: 'E-mail de contact',
    publicationDirector: 'Directeur de la publication',
  },
  /** Texts of the workflow pieces shared by admin, lawyer and notary pages. */
  workflows: {
    run: 'Exécuter',
    noWebhook: "Aucune adresse de webhook n'est configurée pour cette automatisation",
    runLocked: 'Exécution lancée : patientez 30 secondes avant de relancer',
    scheduled: (interval: number) => `Planifié (${interval} min)`,
    notScheduled: 'Non planifié',
    active: 'Actif',
    inactive: 'Inactif',
    intervalMinutes: (interval: number) => (interval === 1 ? '1 minute' : `${interval} minutes`),
    lastRun: 'Dernière exécution',
    never: 'Jamais',
    pendingActivation: "En attente d'activation par l'administrateur",
    integrated: 'Automatisations configurées et intégrées',
    schedulingSwitch: 'Planification automatique',
    planning: 'Planification',
    /** A member's search over his own automations (name, description, category, tags). */
    search: 'Rechercher dans mes automatisations',
    noMatch: 'Aucune automatisation ne correspond à votre recherche.',
  },
  /** The execution history dialog of a workflow. */
  executions: {
    open: 'Historique',
    title: (name: string) => `Historique des exécutions : ${name}`,
    close: 'Fermer',
    refresh: "Actualiser l'historique",
    loading: "Chargement de l'historique",
    empty: 'Aucune exécution enregistrée',
    columns: {
      startedAt: 'Date',
      trigger: 'Déclenchement',
      outcome: 'Statut',
      httpStatus: 'Code HTTP',
      duration: 'Durée',
      message: 'Message',
    },
    triggers: {
      schedule: 'Planifié',
      manual: 'Manuel',
      manual_force: 'Forcé',
      redrive: 'Relancé',
      test: 'Test de connexion',
      replay: 'Rejeu',
    },
    outcomes: { success: 'Réussi', failed: 'Échec', cancelled: 'Annulé' },
    retries: {
      scheduled: 'Échec, nouvelle tentative prévue',
      dead_letter: 'Échec, en file des messages en échec',
    },
    duration: (ms: number) =>
      ms < 1000 ? `${ms} ms` : `${(ms / 1000).toLocaleString('fr-FR', { maximumFractionDigits: 1 })} s`,
    more: 'Charger plus',
    moreFailed: "Erreur lors du chargement de la suite de l'historique",
  },
  /** Lists shown a page at a time. */
  lists: {
    pagination: {
      nextPageLabel: 'Page suivante',
      previousPageLabel: 'Page précédente',
      pageLabel: (page: number) => `Page ${page}`,
    },
    /** A count as a header shows it ('10 000'). */
    count: (count: number) => count.toLocaleString('fr-FR'),
    /** The results of a search on the page shown, and whether more follow on the next. */
    matches: (count: number, more: boolean) =>
      `${frenchCount(count, 'résultat', 'résultats')}${more ? ' sur cette page, d’autres suivent' : ''}`,
  },
} as const;
