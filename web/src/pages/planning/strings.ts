/** Texts of the planning pages /lawyer/cron and /notary/cron (spec §2 'Planning'). */
export const PLANNING_TEXT = {
  title: 'Planification',
  description: 'Le planificateur exécute vos automatisations actives et planifiées à leur intervalle.',
  globalTitle: 'Planificateur global',
  globalSwitch: 'Planification automatique',
  globalOn: 'Activée',
  globalOff: 'Désactivée',
  globalInterval: 'Vérification',
  everyMinutes: (minutes: number) => (minutes === 1 ? 'toutes les minutes' : `toutes les ${minutes} minutes`),
  maxConcurrent: 'Exécutions simultanées (max.)',
  workflowsTitle: 'Vos automatisations',
  loading: 'Chargement des automatisations',
  interval: 'Intervalle',
  lastRun: 'Dernière exécution',
  nextRun: 'Prochaine exécution',
  state: 'État',
} as const;
