/** Texts of /lawyer/workflows (spec §2). */
export const LAWYER_WORKFLOWS_TEXT = {
  title: 'Mes Automatisations',
  description: "Les automatisations configurées pour votre cabinet par l'administrateur.",
  active: (count: number) => `Automatisations actives (${count})`,
  pending: (count: number) => `En attente d'activation (${count})`,
  loading: 'Chargement des automatisations',
  noActive: 'Aucune automatisation active pour le moment.',
  noPending: "Aucune automatisation en attente d'activation.",
  infoScheduling:
    'Activez la planification automatique pour qu’une automatisation s’exécute seule à son intervalle ; ' +
    '« Exécuter » la lance immédiatement.',
  infoPending:
    "Une automatisation en attente sera activée par l'administrateur sous 24 à 48 heures après la configuration de votre compte.",
  planning: 'Planification',
} as const;
