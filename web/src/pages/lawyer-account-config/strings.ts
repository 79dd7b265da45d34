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
