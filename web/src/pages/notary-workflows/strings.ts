import type { WorkflowCategory } from '../../../../shared';

/** Texts of /notary/workflows (spec §2 'Mes Automatisations'). */
export const NOTARY_WORKFLOWS_TEXT = {
  title: 'Mes Automatisations',
  description: 'Les automatisations de votre étude, par catégorie.',
  tabs: {
    all: 'Toutes',
    client_management: 'Gestion Client',
    document_classification: 'Classement des Pièces',
    client_reminder: 'Relance Dossier Client',
  } satisfies Record<WorkflowCategory, string>,
  tab: (label: string, count: number) => `${label} (${count})`,
  running: (count: number) =>
    count < 2
      ? `${count} automatisation en cours d’exécution : elle s’exécute automatiquement à son intervalle.`
      : `${count} automatisations en cours d'exécution : elles s'exécutent automatiquement à leur intervalle.`,
  warning:
    "N'ouvrez pas les e-mails traités par l'assistant et ne déplacez pas les pièces jointes : l'assistant les traite lui-même.",
  emptyTitle: 'Aucune automatisation',
  emptyText: "Vos automatisations apparaîtront ici dès que l'administrateur les aura configurées.",
} as const;
