import { frenchCount } from '../../format/count';
/** Texts of the second factor: sign-in step, enrolment, recovery codes, step-up, settings. */
export const SECOND_FACTOR_TEXT = {
  title: 'Vérification en deux étapes',
  verifyDescription: 'Confirmez votre identité avec votre clé d’accès ou le code de votre application.',
  enrolDescription:
    'Votre licence d’administrateur exige une vérification en deux étapes. Configurez-la maintenant : ' +
    'une clé d’accès (empreinte, visage, code de l’appareil) ou une application d’authentification.',
  usePasskey: 'Utiliser ma clé d’accès',
  passkeyBusy: 'En attente de la clé d’accès…',
  codeLabel: 'Code à 6 chiffres',
  codeHint: 'Le code affiché par votre application d’authentification.',
  recoveryLabel: 'Code de secours',
  recoveryHint: 'Un des 10 codes de secours reçus lors de la configuration (utilisable une seule fois).',
  useRecovery: 'Utiliser un code de secours',
  useCode: 'Utiliser le code de l’application',
  verify: 'Vérifier',
  verifying: 'Vérification...',
  back: 'Retour à la connexion',
  passkeyTab: 'Clé d’accès',
  totpTab: 'Application d’authentification',
  passkeyExplanation:
    'Une clé d’accès remplace le code : votre appareil la garde et la déverrouille avec votre empreinte, ' +
    'votre visage ou son code.',
  registerPasskey: 'Créer une clé d’accès',
  registeringPasskey: 'Création de la clé d’accès…',
  passkeyUnsupported:
    'Ce navigateur ne prend pas en charge les clés d’accès : utilisez une application d’authentification.',
  passkeyCancelled: 'La clé d’accès n’a pas été utilisée. Veuillez réessayer.',
  showQrCode: 'Afficher le QR code',
  qrCodeAlt: 'QR code à scanner avec votre application d’authentification',
  scanInstructions:
    'Scannez ce QR code avec votre application d’authentification (Google Authenticator, Microsoft ' +
    'Authenticator, 1Password…), puis saisissez le code à 6 chiffres qu’elle affiche.',
  manualSecret: 'Ou saisissez cette clé dans l’application :',
  confirm: 'Activer',
  recoveryTitle: 'Vos codes de secours',
  recoveryExplanation:
    'Conservez ces 10 codes en lieu sûr (gestionnaire de mots de passe, coffre) : ils ne seront plus ' +
    'jamais affichés. Chacun permet une connexion si vous perdez votre appareil.',
  copyCodes: 'Copier les codes',
  copied: 'Copié !',
  savedCodes: 'J’ai conservé mes codes de secours',
  continue: 'Continuer',
  stepUpTitle: 'Confirmez votre identité',
  stepUpDescription:
    'Cette action sensible demande une nouvelle vérification (la dernière date de plus de 15 minutes).',
  cancel: 'Annuler',
  close: 'Fermer',
  settingsTitle: 'Vérification en deux étapes',
  settingsDescription:
    'Protégez votre licence : une clé d’accès ou une application d’authentification en plus de la clé de licence.',
  statusLabel: 'État',
  enabled: 'Activée',
  disabled: 'Non activée',
  requiredLabel: 'Obligatoire',
  required: 'Oui',
  optional: 'Non (recommandée)',
  methodsLabel: 'Méthodes',
  passkeysCount: (count: number) => frenchCount(count, 'clé d’accès', 'clés d’accès'),
  totpMethod: 'Application d’authentification',
  noMethod: 'Aucune',
  recoveryLeftLabel: 'Codes de secours restants',
  addPasskey: 'Ajouter une clé d’accès',
  setUpTotp: 'Configurer une application d’authentification',
  replaceTotp: 'Remplacer l’application d’authentification',
  totpDialogTitle: 'Application d’authentification',
  passkeyAdded: 'Clé d’accès ajoutée',
  totpEnabled: 'Application d’authentification configurée',
  resetTitle: 'Réinitialiser la vérification d’une licence',
  resetDescription:
    'Pour un utilisateur qui a perdu son appareil et ses codes de secours : sa vérification est supprimée, ' +
    'ses sessions fermées, et il la configure à nouveau à sa prochaine connexion. L’action est journalisée. ' +
    'Votre propre vérification se réinitialise par un autre administrateur ou par la commande ' +
    'bin/create-admin-licence.ts --reset-second-factor.',
  resetLicenseKey: 'Clé de licence de l’utilisateur',
  reset: 'Réinitialiser',
  resetDone: 'Vérification en deux étapes réinitialisée',
  loadFailed: 'Impossible de charger la vérification en deux étapes',
  browsers: {
    title: 'Navigateurs reconnus',
    description:
      'Les navigateurs où votre second facteur a été saisi, reconnus 30 jours : des codes erronés saisis ' +
      'ailleurs ne les bloquent jamais. Oubliez ceux que vous ne reconnaissez pas.',
    loading: 'Chargement des navigateurs…',
    empty: 'Aucun navigateur reconnu',
    columns: {
      browser: 'Navigateur',
      lastUsedAt: 'Dernière vérification',
      expiresAt: 'Reconnu jusqu’au',
      actions: 'Actions',
    },
    current: (label: string) => `${label} (ce navigateur)`,
    forget: 'Oublier',
    forgetLabel: (label: string) => `Oublier ${label}`,
    forgotten: (label: string) => `${label} ne sera plus reconnu`,
    forgetFailed: 'Impossible d’oublier ce navigateur',
  },
} as const;
