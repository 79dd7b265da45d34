import type { AuditRecord, FolderRecord, LawyerRecord, WorkflowRecord } from '../directory/ports';

/** A value of an exported row: JSON keeps its type, CSV writes it as text. */
export type ExportValue = string | number | boolean | null;
export type ExportRow = Readonly<Record<string, ExportValue>>;

/** One call of the history, as the export reads it. */
export interface ExportedCall {
  readonly workflowId: string;
  readonly runId: string | null;
  readonly id: string;
  readonly startedAt: string;
  readonly trigger: string;
  readonly outcome: string;
  readonly httpStatus: number | null;
  readonly durationMs: number;
  readonly attempt: number;
  readonly retry: string | null;
  readonly message: string;
}

/** One run's completion report, as the export reads it (scheduling's `StoredReport`). */
export interface ExportedReport {
  readonly workflowId: string;
  readonly runId: string;
  readonly runStartedAt: string;
  readonly reportedAt: string;
  readonly status: 'success' | 'failure';
  readonly summary: string;
  readonly items: number | null;
  readonly error: string | null;
}

/** The firm's licence and subscription, as the export states them. */
export interface SubscriptionFacts {
  readonly licenseType: string | null;
  readonly isActive: boolean | null;
  readonly subscriptionStatus: string | null;
  readonly nextPaymentDue: string | null;
  readonly subscribedAt: string | null;
  readonly canceledAt: string | null;
  readonly purgeAfter: string | null;
}

/**
 * A firm's data, read for its export: the small parts at once, the large ones (history, reports,
 * audit) as pages read while the archive is written, so that memory stays bounded.
 */
export interface FirmExportData {
  readonly lawyer: LawyerRecord;
  readonly workflows: readonly WorkflowRecord[];
  readonly folders: readonly FolderRecord[];
  readonly subscription: SubscriptionFacts;
  readonly history: () => AsyncIterable<readonly ExportedCall[]>;
  readonly reports: () => AsyncIterable<readonly ExportedReport[]>;
  readonly audit: () => AsyncIterable<readonly AuditRecord[]>;
}

/** One column: its JSON key, its CSV header (French), and how a record gives its value. */
interface Column<T> {
  readonly key: string;
  readonly header: string;
  readonly value: (record: T) => ExportValue;
}

/** One file pair of the export (`<name>.json` and `<name>.csv`). */
export interface ExportTable {
  readonly name: string;
  /** What the file holds, for README.txt. */
  readonly description: string;
  readonly columns: readonly { readonly key: string; readonly header: string }[];
  /** The rows, page by page. */
  rows(data: FirmExportData): AsyncIterable<readonly ExportRow[]>;
}

const yesNo = (value: boolean | null) => (value === null ? null : value ? 'oui' : 'non');

function table<T>(
  name: string,
  description: string,
  columns: readonly Column<T>[],
  pages: (data: FirmExportData) => AsyncIterable<readonly T[]> | Iterable<readonly T[]>,
): ExportTable {
  return {
    name,
    description,
    columns: columns.map(({ key, header }) => ({ key, header })),
    async *rows(data) {
      for await (const page of pages(data)) {
        yield page.map((record) =>
          Object.fromEntries(columns.map((column) => [column.key, column.value(record)])),
        );
      }
    },
  };
}

/**
 * The export's files, in the ZIP's order. Never in them: the Google password and OAuth client (kept
 * in Secrets Manager, only their presence is said), the licence key, the webhook signing secret.
 */
export const EXPORT_TABLES: readonly ExportTable[] = [
  table<LawyerRecord>(
    'profil',
    'Le profil du cabinet : identité, adresses, téléphone, étude, signature, fréquence des relances.',
    [
      { key: 'id', header: 'Identifiant', value: (lawyer) => lawyer.id },
      { key: 'firstName', header: 'Prénom', value: (lawyer) => lawyer.firstName },
      { key: 'lastName', header: 'Nom', value: (lawyer) => lawyer.lastName },
      { key: 'email', header: 'E-mail Google', value: (lawyer) => lawyer.email },
      { key: 'mainEmail', header: 'E-mail principal', value: (lawyer) => lawyer.mainEmail },
      { key: 'phoneNumber', header: 'Téléphone', value: (lawyer) => lawyer.phoneNumber },
      { key: 'officeName', header: "Nom de l'étude", value: (lawyer) => lawyer.officeName },
      { key: 'emailSignature', header: 'Signature e-mail', value: (lawyer) => lawyer.emailSignature },
      {
        key: 'reminderFrequency',
        header: 'Fréquence des relances (jours)',
        value: (lawyer) => lawyer.reminderFrequency,
      },
      {
        key: 'googlePasswordStored',
        header: 'Mot de passe Google enregistré',
        value: (lawyer) => yesNo(lawyer.hasGooglePassword),
      },
      {
        key: 'googleCredentialsStored',
        header: 'Identifiants OAuth Google enregistrés',
        value: (lawyer) => yesNo(lawyer.hasGoogleCredentials),
      },
      { key: 'createdAt', header: 'Créé le', value: (lawyer) => lawyer.createdAt },
      { key: 'updatedAt', header: 'Mis à jour le', value: (lawyer) => lawyer.updatedAt },
    ],
    (data) => [[data.lawyer]],
  ),
  table<WorkflowRecord>(
    'automatisations',
    'Les automatisations du cabinet : nom, type, adresse du webhook, état, planification.',
    [
      { key: 'id', header: 'Identifiant', value: (workflow) => workflow.id },
      { key: 'name', header: 'Nom', value: (workflow) => workflow.name },
      { key: 'description', header: 'Description', value: (workflow) => workflow.description },
      { key: 'type', header: 'Type', value: (workflow) => workflow.type },
      { key: 'webhookUrl', header: 'Adresse du webhook', value: (workflow) => workflow.webhookUrl },
      { key: 'active', header: 'Active', value: (workflow) => yesNo(workflow.active) },
      { key: 'cronEnabled', header: 'Planifiée', value: (workflow) => yesNo(workflow.cronEnabled) },
      { key: 'cronInterval', header: 'Intervalle (minutes)', value: (workflow) => workflow.cronInterval },
      { key: 'cronLastRun', header: 'Dernière exécution', value: (workflow) => workflow.cronLastRun },
      { key: 'cronNextRun', header: 'Prochaine exécution', value: (workflow) => workflow.cronNextRun },
      { key: 'folderId', header: 'Dossier (identifiant)', value: (workflow) => workflow.folderId },
      { key: 'tags', header: 'Étiquettes', value: (workflow) => workflow.tags.join(', ') },
      { key: 'category', header: 'Catégorie', value: (workflow) => workflow.category },
      { key: 'createdAt', header: 'Créée le', value: (workflow) => workflow.createdAt },
      { key: 'updatedAt', header: 'Mise à jour le', value: (workflow) => workflow.updatedAt },
    ],
    (data) => [data.workflows],
  ),
  table<FolderRecord>(
    'dossiers',
    'Les dossiers clients qui regroupent des automatisations du cabinet.',
    [
      { key: 'id', header: 'Identifiant', value: (folder) => folder.id },
      { key: 'name', header: 'Nom', value: (folder) => folder.name },
      { key: 'description', header: 'Description', value: (folder) => folder.description },
      { key: 'createdAt', header: 'Créé le', value: (folder) => folder.createdAt },
      { key: 'updatedAt', header: 'Mis à jour le', value: (folder) => folder.updatedAt },
    ],
    (data) => [data.folders],
  ),
  table<ExportedCall>(
    'historique',
    "L'historique des exécutions des 30 derniers jours : un appel du webhook par ligne (une exécution réessayée a une ligne par tentative).",
    [
      { key: 'workflowId', header: 'Automatisation (identifiant)', value: (call) => call.workflowId },
      { key: 'runId', header: 'Exécution (identifiant)', value: (call) => call.runId },
      { key: 'id', header: 'Appel (identifiant)', value: (call) => call.id },
      { key: 'startedAt', header: 'Début', value: (call) => call.startedAt },
      { key: 'trigger', header: 'Déclenchement', value: (call) => call.trigger },
      { key: 'outcome', header: 'Statut', value: (call) => call.outcome },
      { key: 'httpStatus', header: 'Code HTTP', value: (call) => call.httpStatus },
      { key: 'durationMs', header: 'Durée (ms)', value: (call) => call.durationMs },
      { key: 'attempt', header: 'Tentative', value: (call) => call.attempt },
      { key: 'retry', header: 'Suite', value: (call) => call.retry },
      { key: 'message', header: 'Message', value: (call) => call.message },
    ],
    (data) => data.history(),
  ),
  table<ExportedReport>(
    'comptes-rendus',
    "Les comptes rendus envoyés par les workflows à la fin de leurs exécutions (30 derniers jours), reliés à l'historique par l'identifiant d'exécution.",
    [
      { key: 'workflowId', header: 'Automatisation (identifiant)', value: (report) => report.workflowId },
      { key: 'runId', header: 'Exécution (identifiant)', value: (report) => report.runId },
      { key: 'runStartedAt', header: "Début de l'appel", value: (report) => report.runStartedAt },
      { key: 'reportedAt', header: 'Reçu le', value: (report) => report.reportedAt },
      {
        key: 'status',
        header: 'Statut',
        value: (report) => (report.status === 'success' ? 'terminé' : 'échec'),
      },
      { key: 'summary', header: 'Résumé', value: (report) => report.summary },
      { key: 'items', header: 'Éléments traités', value: (report) => report.items },
      { key: 'error', header: 'Erreur', value: (report) => report.error },
    ],
    (data) => data.reports(),
  ),
  table<AuditRecord>(
    'journal-audit',
    "Les entrées du journal d'audit qui concernent le cabinet ou ses automatisations (actions des administrateurs, exports).",
    [
      { key: 'at', header: 'Date', value: (entry) => entry.at },
      { key: 'actor', header: 'Auteur', value: (entry) => entry.actorEmail },
      { key: 'action', header: 'Action', value: (entry) => entry.action },
      { key: 'target', header: 'Cible', value: (entry) => entry.target },
      { key: 'targetLabel', header: 'Libellé de la cible', value: (entry) => entry.targetLabel },
    ],
    (data) => data.audit(),
  ),
  table<SubscriptionFacts>(
    'abonnement',
    "L'état de la licence et de l'abonnement : actif ou non, statut, prochain prélèvement, résiliation.",
    [
      { key: 'licenseType', header: 'Type de licence', value: (facts) => facts.licenseType },
      { key: 'isActive', header: 'Licence active', value: (facts) => yesNo(facts.isActive) },
      {
        key: 'subscriptionStatus',
        header: "Statut de l'abonnement",
        value: (facts) => facts.subscriptionStatus,
      },
      { key: 'nextPaymentDue', header: 'Prochain prélèvement', value: (facts) => facts.nextPaymentDue },
      { key: 'subscribedAt', header: 'Abonné depuis', value: (facts) => facts.subscribedAt },
      { key: 'canceledAt', header: 'Résilié le', value: (facts) => facts.canceledAt },
      { key: 'purgeAfter', header: 'Données supprimées après le', value: (facts) => facts.purgeAfter },
    ],
    (data) => [[data.subscription]],
  ),
];

/** README.txt: what each file holds, and what is never in the export. */
export const EXPORT_README = [
  'Export des données du cabinet',
  '==============================',
  '',
  'Chaque ensemble de données est fourni deux fois : en JSON (un tableau d’objets, clés en anglais',
  'comme dans l’API) et en CSV (UTF-8 avec BOM, séparateur virgule, guillemets doubles, en-têtes en',
  'français). Les dates sont en UTC, au format ISO 8601.',
  '',
  ...EXPORT_TABLES.flatMap((each) => [`${each.name}.json / ${each.name}.csv`, `  ${each.description}`, '']),
  'Ce que l’export ne contient jamais',
  '----------------------------------',
  '- Le mot de passe Google et les identifiants OAuth Google (identifiant client, secret client,',
  '  URI de redirection) : ils restent dans le coffre de secrets ; le profil dit seulement s’ils sont',
  '  enregistrés.',
  '- La clé de licence et le secret de signature des webhooks.',
  '',
  'Le lien de téléchargement de cet export est valable une heure ; le fichier est ensuite supprimé.',
  '',
].join('\n');
