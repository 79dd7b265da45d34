import { HEALTH_MESSAGES } from '../../../../shared/health-messages';

/** The page of an automation's list, searched for its name (the lists read it with `linkedSearch`). */
export const automationLink = (workflowsPath: string, name: string) =>
  `${workflowsPath}?recherche=${encodeURIComponent(name)}`;

/** The search an `automationLink` names, from the page's query string ('' when none). */
export const linkedSearch = (search: string) => new URLSearchParams(search).get('recherche') ?? '';

/** '100 ms', '1.5 s': a call's duration. */
const durationText = (ms: number) => (ms < 1000 ? `${ms} ms` : `${ms / 1000} s`);

/**
 * The texts of automation health: the cards' state, the history dialog's figures, the
 * dashboard and the settings. Apart from `STRINGS` so that /login's bundle does not carry them.
 */
export const HEALTH_TEXT = {
  section: 'Santé',
  /** The expander of a failure said in plain words: the recorded, technical message. */
  details: 'Détails',
  states: HEALTH_MESSAGES.states,
  unknown: 'Santé en cours de chargement',
  gone: 'Automatisation supprimée',
  goneHint: 'Rechargez la page pour mettre la liste à jour.',
  lastFailure: (at: string, message: string) => `Dernier échec le ${at} : ${message}`,
  resume: 'Reprendre',
  resumeOf: (name: string) => `Reprendre la planification de ${name}`,
  test: 'Tester la connexion',
  testOf: (name: string) => `Tester la connexion de ${name}`,
  testSavedUrl:
    "'Tester la connexion' appelle l'adresse enregistrée, signée, avec un corps marqué comme test.",
  detail: {
    state: 'État',
    lastSuccess: 'Dernier succès',
    lastFailure: 'Dernier échec',
    consecutive: 'Échecs consécutifs',
    pause: 'Suspension',
    day: 'Dernières 24 heures',
    week: '7 derniers jours',
    none: 'Aucun',
    window: (runs: number, rate: number | null, p95: number | null) =>
      runs === 0
        ? 'Aucune exécution'
        : `${runs} exécution(s), ${Math.round((rate ?? 0) * 100)} % de réussite${
            p95 === null ? '' : `, durée p95 ≤ ${durationText(p95)}`
          }`,
    /** The same for a lawyer or notary: the p95 said in words. */
    windowPlain: (runs: number, rate: number | null, p95: number | null) =>
      runs === 0
        ? 'Aucune exécution'
        : `${runs} exécution(s), ${Math.round((rate ?? 0) * 100)} % de réussite${
            p95 === null ? '' : `, durée ≤ ${durationText(p95)} dans 95 % des cas`
          }`,
    failed: 'Impossible de charger la santé de cette automatisation',
  },
  dashboard: {
    title: 'Santé des automatisations',
    description:
      'Appels des dernières 24 heures par issue, retard de déclenchement, automatisations en échec',
    refresh: 'Actualiser la santé des automatisations',
    deliveriesTitle: 'Appels par heure (24 heures)',
    deliveriesAria: 'Appels des webhooks par heure sur les dernières 24 heures, empilés par issue',
    lagTitle: 'Retard de déclenchement (p95)',
    lagDescription: 'Une heure sans appel planifié vaut 0 sur le graphique ; le tableau indique alors « — ».',
    lagAria: 'Retard entre l’heure prévue et le premier appel, 95e centile par heure',
    hour: 'Heure',
    calls: 'Appels',
    seconds: 'Secondes',
    series: {
      succeeded: 'Réussis',
      retried: 'Nouvelles tentatives',
      failed: 'Échecs',
      deadLettered: 'En file des échecs',
      reportedFailed: 'Réception OK, traitement en échec',
      lag: 'Retard p95',
    },
    /** '14 h': the hour in the firms' time zone, as fr-FR writes it. */
    hourLabel: (iso: string) =>
      new Intl.DateTimeFormat('fr-FR', { hour: '2-digit', timeZone: 'Europe/Paris' }).format(new Date(iso)),
    lagValue: (ms: number | null) => (ms === null ? '—' : `≤ ${ms / 1000} s`),
    empty: 'Aucun appel sur les dernières 24 heures',
    tableToggle: 'Afficher les données sous forme de tableau',
    tableAria: 'Appels par heure et par issue, sous forme de tableau',
    failingTitle: 'Automatisations en échec',
    failingEmpty: 'Aucune automatisation en échec',
    /** The list is cut to the longest failure streaks (DASHBOARD_FAILING_LISTED). */
    failingListed: (listed: number, total: number) =>
      `Les ${listed} plus longues séries d’échecs, sur ${total.toLocaleString('fr-FR')} automatisations en échec. Les autres sont signalées sur leur carte.`,
    columns: {
      name: 'Automatisation',
      state: 'État',
      consecutive: 'Échecs consécutifs',
      lastFailureAt: 'Dernier échec',
      message: 'Dernier message',
    },
    loadFailed: 'Impossible de charger la santé des automatisations',
    /** What a lawyer or notary reads instead of the technical titles (the admin keeps those). */
    plain: {
      description: 'Exécutions des dernières 24 heures, délai avant exécution, automatisations en échec',
      deliveriesTitle: 'Exécutions par heure (24 heures)',
      deliveriesAria: 'Exécutions de vos automatisations par heure sur les dernières 24 heures, par issue',
      lagTitle: 'Délai avant exécution, dans 95 % des cas',
      lagAria:
        'Délai entre l’heure prévue et l’exécution, par heure : 95 % des exécutions partent dans ce délai',
      lag: 'Délai avant exécution',
    },
  },
  settings: {
    title: 'Santé des automatisations : réglages',
    description:
      'Suspension automatique des automatisations qui échouent, et alertes par e-mail (une par automatisation et par jour au plus).',
    pauseAfter: 'Suspendre après ce nombre d’échecs consécutifs',
    pauseAfterHint: 'Exécutions planifiées terminées en échec, de 1 à 50 (5 par défaut).',
    alertEmail: 'Adresse des alertes de l’administrateur',
    alertEmailHint: (deployment: string | null) =>
      deployment
        ? `Vide : l’adresse choisie au déploiement (${deployment}).`
        : 'Vide : aucune, faute d’adresse choisie au déploiement.',
    noAlertAddress:
      'Aucune adresse d’alerte : les alertes destinées à l’administrateur (automatisation suspendue, résumé quotidien) ne sont envoyées à personne. Saisissez une adresse ci-dessous.',
    dailyDigest: 'Recevoir chaque matin le résumé des automatisations en échec',
    save: 'Enregistrer',
    loadFailed: 'Impossible de charger les réglages de santé',
  },
} as const;
