import { EXPORT_MESSAGES, REPORT_MESSAGES } from '../../../../shared/report-messages';

/**
 * The texts of completion reports, 'Rejouer' and 'Exporter mes données'. Apart from `STRINGS` so
 * that /login's bundle does not carry them.
 */
export const REPORTS_TEXT = {
  history: {
    column: 'Compte rendu',
    success: REPORT_MESSAGES.history.success,
    failure: REPORT_MESSAGES.history.failure,
    missing: REPORT_MESSAGES.history.missing,
    missingSince: (at: string) => `attendu avant le ${at}`,
    items: (items: number) => `${items} élément(s) traité(s)`,
    actions: 'Actions',
  },
  health: {
    processingFailed: REPORT_MESSAGES.processingFailed,
    processingFigures: (day: number, week: number) => `${day} sur 24 heures, ${week} sur 7 jours`,
    series: 'Réception OK, traitement en échec',
  },
  replay: {
    button: 'Rejouer',
    of: (at: string) => `Rejouer l'exécution du ${at}`,
    failed: "Impossible de rejouer l'exécution",
  },
  dataExport: {
    title: 'Exporter mes données',
    titleOf: (name: string) => `Exporter les données de ${name}`,
    description:
      "Une archive ZIP avec le profil, les automatisations, les dossiers, 30 jours d'historique avec les comptes rendus, le journal d'audit et l'abonnement, en JSON et CSV. Les identifiants Google n'y figurent pas.",
    start: 'Exporter mes données',
    startOf: 'Exporter les données',
    again: 'Nouvel export',
    loading: "Chargement de l'export",
    none: 'Aucun export demandé.',
    building: (at: string) => `Export demandé le ${at} : préparation en cours…`,
    ready: (until: string) => `Export prêt. Lien valable jusqu'au ${until}.`,
    download: 'Télécharger l’archive',
    size: (bytes: number) =>
      bytes < 1_000_000
        ? `${Math.max(1, Math.round(bytes / 1000)).toLocaleString('fr-FR')} Ko`
        : `${(bytes / 1_000_000).toLocaleString('fr-FR', { maximumFractionDigits: 1 })} Mo`,
    failed: EXPORT_MESSAGES.failed,
    expired: EXPORT_MESSAGES.expired,
    loadFailed: "Impossible de charger l'état de l'export",
    startFailed: "Impossible de démarrer l'export",
  },
} as const;
