/** Texts of the member pages that lawyers and notaries share (spec §2): welcome, account configuration. */

/** Welcome pages. */
export const WELCOME_TITLE = 'Bienvenue';

export interface WelcomeContent {
  readonly tagline: string;
  readonly whatTitle: string;
  readonly features: readonly string[];
  readonly stepsTitle: string;
  readonly steps: readonly { title: string; text: string; button: string; path: string }[];
}

const FEATURES = [
  'Traitement des e-mails reçus sur votre adresse dédiée et constitution de votre base clients.',
  'Un dossier structuré par client dans votre Google Drive, pièces analysées, renommées et converties en PDF.',
  'Réponses aux questions fréquentes depuis votre base de connaissances ; le reste est transmis à votre adresse principale.',
  'Relances des clients pour les informations et pièces manquantes, à la fréquence de votre choix.',
] as const;

export const LAWYER_WELCOME: WelcomeContent = {
  tagline: "Votre assistant IA juridique s'occupe du suivi administratif de vos dossiers.",
  whatTitle: "Ce que fait l'assistant",
  features: [
    ...FEATURES,
    "Les dates d'audience ajoutées à votre agenda Google et le suivi de l'avancement de chaque dossier.",
  ],
  stepsTitle: 'Pour commencer',
  steps: [
    {
      title: '1. Configurez votre compte',
      text: 'Renseignez votre cabinet et votre compte Google dédié.',
      button: 'Configuration compte',
      path: '/lawyer/account-config',
    },
    {
      title: '2. Préparez votre écosystème Google',
      text: "Créez les dossiers et feuilles que l'assistant utilise.",
      button: 'Écosystème Google',
      path: '/lawyer/google-ecosystem',
    },
  ],
};

export const NOTARY_WELCOME: WelcomeContent = {
  tagline: "Votre assistant IA s'occupe du suivi administratif de vos dossiers.",
  whatTitle: "Ce que fait l'assistant",
  features: FEATURES,
  stepsTitle: 'Pour commencer',
  steps: [
    {
      title: '1. Configurez votre compte',
      text: 'Renseignez votre étude et votre compte Google dédié.',
      button: 'Configuration compte',
      path: '/notary/google',
    },
    {
      title: '2. Préparez votre écosystème Google',
      text: "Suivez le guide pas à pas des dossiers et feuilles que l'assistant utilise.",
      button: 'Écosystème Google',
      path: '/notary/google-ecosystem',
    },
  ],
};

/** Texts of the account configuration pages (/lawyer/account-config, /lawyer/google, /notary/google). */
export const ACCOUNT_CONFIG_TEXT = {
  title: 'Configuration compte',
  notaryTitle: 'Configuration Google',
  description:
    "Les informations de votre cabinet et de votre compte Google dédié, utilisées par l'assistant.",
  formTitle: 'Vos informations',
  save: 'Enregistrer',
  edit: 'Modifier mes informations',
  cancel: 'Annuler',
  loading: 'Chargement de vos informations',
  licenseTitle: 'Votre licence',
  licenseKey: 'Clé de licence',
  /** Shown when the session carries no key (spec §2: a default demo key). */
  demoLicenseKey: 'NOTARY-DEMO0000',
  profileTitle: 'Votre profil',
  workflowsTitle: 'Vos automatisations',
  notConfigured: 'Complétez vos informations pour que l’administrateur configure vos automatisations.',
  pending:
    "Configuration enregistrée : en attente d'activation par l'administrateur. Vos automatisations seront activées sous 24 à 48 heures.",
  disabled: 'Compte configuré, mais vos automatisations sont actuellement désactivées.',
  integrated: 'Automatisations configurées et intégrées',
  fields: {
    name: 'Nom',
    email: 'Email Google',
    mainEmail: 'Email principal',
    phone: 'Téléphone',
    office: "Nom de l'étude",
    reminder: 'Fréquence de relance',
    googlePassword: 'Mot de passe Google',
    signature: 'Signature e-mail',
    configured: 'Configuré',
    notConfigured: 'Non configuré',
    none: '—',
    days: (count: number) => (count === 1 ? '1 jour' : `${count} jours`),
  },
  guidance:
    'Utilisez une adresse Gmail dédiée, sans double authentification, avec un mot de passe fort et unique.',
} as const;
