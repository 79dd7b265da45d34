import { HEALTH_MESSAGES } from './health-messages';
import { MESSAGES } from './messages';

/**
 * What a lawyer or notary reads about a failed call of his automation: a plain sentence saying
 * what happened and what to check, the recorded message (spec §8's technical text, kept in the
 * history as written) behind 'Détails'. Apart from `MESSAGES` so that /login's bundle does not
 * carry these sentences.
 */
export const PLAIN_FAILURES = {
  refused: "Le serveur n8n n'a pas répondu (connexion refusée). Vérifiez l'adresse ou que n8n est démarré.",
  timeout:
    "Le serveur n8n n'a pas répondu à temps. Il est peut-être arrêté ou surchargé : réessayez dans quelques minutes.",
  closed: 'Le serveur n8n a coupé la connexion sans répondre. Vérifiez que n8n est démarré, puis réessayez.',
  hostNotFound:
    "L'adresse du serveur n8n est introuvable (nom de domaine inconnu). Vérifiez l'adresse saisie.",
  dnsUnavailable:
    "L'adresse du serveur n8n n'a pas pu être vérifiée pour le moment. Réessayez dans quelques minutes.",
  unreachable:
    "Le serveur n8n est injoignable (réseau inaccessible). Vérifiez l'adresse ou que le serveur est en ligne.",
  tls: "La connexion sécurisée (https) au serveur n8n a échoué : son certificat est invalide ou il n'accepte pas https. Vérifiez l'adresse ou faites vérifier le certificat du serveur.",
  unknownConnection: "Le serveur n8n n'a pas pu être joint. Vérifiez l'adresse ou que n8n est démarré.",
  privateAddress:
    "Cette adresse mène à un réseau privé, que l'assistant ne peut pas appeler. Indiquez l'adresse publique de votre serveur n8n.",
  invalidUrl: "L'adresse de l'automatisation n'est pas valide. Vérifiez l'adresse saisie (https://…).",
  notFound:
    "Le serveur n8n ne connaît pas cette adresse. Vérifiez l'adresse et que le workflow est activé dans n8n.",
  forbidden: "Le serveur n8n a refusé l'accès. Vérifiez les autorisations du workflow dans n8n.",
  serverError:
    'Le serveur n8n a rencontré une erreur en exécutant le workflow. Consultez ses exécutions dans n8n.',
  redirect:
    "Le serveur n8n a renvoyé vers une autre adresse, que l'assistant ne suit pas par sécurité. Indiquez l'adresse finale.",
  httpError: (status: string) =>
    `Le serveur n8n a répondu par une erreur (code ${status}). Réessayez ; si cela persiste, consultez n8n.`,
} as const;

/** A failure as shown: the plain sentence, and the recorded message it stands for (null: none). */
export interface PlainWording {
  readonly text: string;
  readonly detail: string | null;
}

const EXECUTION = MESSAGES.execution;
const CONNECTION_PREFIX = EXECUTION.connectionError('');
const HTTP_ERROR = new RegExp(`^${escapeRegExp(EXECUTION.other('HTTP '))}(\\d{3})\\b.*$`, 's');

/** Recorded messages that are exactly one failure, most specific first. */
const EXACT: readonly (readonly [recorded: string, plain: string])[] = [
  [EXECUTION.timeout, PLAIN_FAILURES.timeout],
  [EXECUTION.noResponse, PLAIN_FAILURES.closed],
  [EXECUTION.privateAddress, PLAIN_FAILURES.privateAddress],
  [EXECUTION.invalidWebhookUrl, PLAIN_FAILURES.invalidUrl],
  [EXECUTION.notFoundInactive, PLAIN_FAILURES.notFound],
  [EXECUTION.notFound, PLAIN_FAILURES.notFound],
  [EXECUTION.forbidden, PLAIN_FAILURES.forbidden],
  [EXECUTION.serverError, PLAIN_FAILURES.serverError],
  [EXECUTION.redirectRefused, PLAIN_FAILURES.redirect],
];

/** The plain sentence of a connection failure, from the detail given to `connectionError(…)`. */
function plainConnection(detail: string): string {
  const { connection } = EXECUTION;
  if (detail.startsWith(connection.refused)) return PLAIN_FAILURES.refused;
  if (detail.startsWith(connection.hostNotFound) || detail.startsWith(connection.noAddress)) {
    return PLAIN_FAILURES.hostNotFound;
  }
  if (detail.startsWith(connection.dnsUnavailable)) return PLAIN_FAILURES.dnsUnavailable;
  if (detail.startsWith(connection.unreachable)) return PLAIN_FAILURES.unreachable;
  if (detail.startsWith(connection.tls) || detail.startsWith(connection.tlsFailed)) return PLAIN_FAILURES.tls;
  if (detail.startsWith('ECONNRESET') || detail.startsWith('EPIPE')) return PLAIN_FAILURES.closed;
  return PLAIN_FAILURES.unknownConnection;
}

/** The plain sentence of a recorded call failure alone, null when it is none we know. */
function plainFailure(recorded: string): string | null {
  const exact = EXACT.find(([message]) => message === recorded);
  if (exact) return exact[1];
  if (recorded.startsWith(CONNECTION_PREFIX)) {
    return plainConnection(recorded.slice(CONNECTION_PREFIX.length));
  }
  const http = HTTP_ERROR.exec(recorded);
  return http ? PLAIN_FAILURES.httpError(http[1] ?? '') : null;
}

/** What may frame a failure's message: a connection test's label, a pause's reason (its count varies). */
const TEST_FRAME = HEALTH_MESSAGES.testRecorded('');
const PAUSE_FRAME = new RegExp(`^${escapeRegExp(HEALTH_MESSAGES.pauseReason(0, '')).replace('0', '\\d+')}`);

/**
 * A recorded message in plain words: a call's failure alone, or inside what frames it (a test's
 * 'Test de connexion : …', a pause's '… dernier message : …', where the 404 hint is said by the
 * plain sentence already). Any other message (a success, a cancellation) is plain already.
 */
export function plainWording(message: string): PlainWording {
  const hint = `. ${HEALTH_MESSAGES.inactiveHint}`;
  const core = message.endsWith(hint) ? message.slice(0, -hint.length) : message;
  const frame = core.startsWith(TEST_FRAME) ? TEST_FRAME : (PAUSE_FRAME.exec(core)?.[0] ?? '');
  const plain = plainFailure(core.slice(frame.length));
  return plain === null ? { text: message, detail: null } : { text: `${frame}${plain}`, detail: message };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
