/** Welcome pages of lawyers and notaries (spec §2). */
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
