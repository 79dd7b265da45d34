import { MESSAGES } from '../../shared/messages';

/**
 * Texts the webhook delivery adds to `MESSAGES.execution` (same voice as the spec's §8). They live
 * here until the lead moves them into `shared/messages.ts`; every delivery module reads them from
 * this one place.
 */
export const DELIVERY_MESSAGES = {
  /** A 404 from n8n means the production webhook is not registered: the workflow is not active. */
  notFound: `${MESSAGES.execution.notFound} (workflow inactif dans n8n ?)`,
  /** A 3xx answer: redirects are never followed, a redirect could lead inside our network. */
  redirectRefused: MESSAGES.execution.other('redirection refusée'),
  /** Details given to `MESSAGES.execution.connectionError(…)`, by cause. */
  connection: {
    refused: 'connexion refusée',
    hostNotFound: 'nom de domaine introuvable',
    dnsUnavailable: 'résolution DNS momentanément impossible',
    noAddress: 'aucune adresse trouvée pour ce nom',
    unreachable: 'hôte injoignable',
    tls: 'certificat TLS invalide',
    unknown: 'erreur inconnue',
  },
} as const;
