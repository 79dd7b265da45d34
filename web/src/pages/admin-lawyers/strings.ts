import { frenchCount } from '../../format/count';
/** Texts of /admin/lawyers (spec §2 'Consultation des Avocats'). */
export const ADMIN_LAWYERS_TEXT = {
  title: 'Consultation des Avocats',
  description: 'Les avocats clients, leur configuration et leur clé de licence.',
  newLawyer: 'Nouvel avocat',
  search: 'Rechercher par nom, email ou étude',
  matches: (count: number) => frenchCount(count, 'résultat', 'résultats'),
  loading: 'Chargement des avocats',
  googlePasswordSet: 'Mot de passe Google configuré',
  googlePasswordMissing: 'Mot de passe Google manquant',
  licenseEmailUndelivered: 'E-mail non délivré',
  email: 'Email',
  office: 'Étude',
  mainEmail: 'Email principal',
  licenseKey: 'Clé de licence',
  noLicenseKey: 'Non définie',
  createdAt: 'Créé le',
  details: 'Détails',
  delete: 'Supprimer',
  detailsOf: (name: string) => `Détails de ${name}`,
  deleteOf: (name: string) => `Supprimer ${name}`,
  createTitle: 'Nouvel avocat',
  create: 'Créer',
  deleteTitle: "Supprimer l'avocat",
  deleteBody: (name: string) =>
    `${name} et toutes ses données (profil, identifiants Google, automatisations et leur historique, clé de licence) seront supprimés définitivement.`,
  deleteConfirm: 'Supprimer définitivement',
  cancel: 'Annuler',
  confirmUpdate: {
    title: (name: string) => `Mettre à jour ${name} ?`,
    body: (name: string, email: string) =>
      `${name} (${email}) utilise déjà cet email ou cette clé de licence : rien n'a été enregistré. La mise à jour remplace son nom, son étude et ses réglages par ceux saisis ci-dessous ; ses automatisations sont conservées. Sinon, corrigez l'email ou la clé.`,
    confirm: (name: string) => `Mettre à jour ${name}`,
  },
} as const;
