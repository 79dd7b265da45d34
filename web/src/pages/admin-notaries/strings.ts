/** Texts of /admin/notaries (spec §2 'Gestion des Notaires'). */
export const ADMIN_NOTARIES_TEXT = {
  title: 'Gestion des Notaires',
  description: 'Les profils des notaires et avocats clients, leur configuration Google et leur licence.',
  search: 'Rechercher par prénom, nom ou email',
  loading: 'Chargement des notaires',
  empty: 'Aucun notaire trouvé',
  columns: {
    name: 'Nom',
    email: 'Email',
    googleOAuth: 'Google OAuth',
    createdAt: 'Date de création',
    actions: 'Actions',
  },
  configured: 'Configuré',
  notConfigured: 'Non configuré',
  details: 'Détails',
  delete: 'Supprimer',
  detailsOf: (name: string) => `Détails de ${name}`,
  deleteOf: (name: string) => `Supprimer ${name}`,
  deleteTitle: 'Supprimer le notaire',
  deleteBody: (name: string) =>
    `Supprimer ${name} ? Cette action est irréversible : son profil, ses identifiants, ses automatisations et leur historique seront supprimés.`,
  deleteConfirm: 'Supprimer',
  cancel: 'Annuler',
} as const;
