import type { WorkflowType } from '../../../shared';
import { runtimeConfig } from './runtime-config';

/** What the automation dialog pre-fills when the admin picks a type (spec §5, create mode). */
export interface WorkflowTemplate {
  readonly name: string;
  readonly description: string;
  /** Path of the type's webhook on the workflow engine, appended to the configured base. */
  readonly webhookPath: string;
}

/** The template of each workflow type: the firm's three n8n workflows. */
export const WORKFLOW_TEMPLATES: Record<WorkflowType, WorkflowTemplate> = {
  client_management: {
    name: 'Gestion Client',
    description:
      'Traite les e-mails reçus, crée la fiche client et son dossier structuré dans le Drive, ' +
      'et répond aux questions fréquentes depuis la base de connaissances.',
    webhookPath: 'webhook/gestion-client',
  },
  document_classification: {
    name: 'Classement des Pièces',
    description:
      'Analyse chaque pièce reçue, la renomme, la convertit en PDF et la classe dans le dossier du client.',
    webhookPath: 'webhook/classement-pieces',
  },
  client_reminder: {
    name: 'Relance Dossier Client',
    description:
      'Relance les clients par e-mail pour les informations et les pièces manquantes, ' +
      'à la fréquence choisie par le cabinet.',
    webhookPath: 'webhook/relance-dossier',
  },
};

/** Where engine webhooks live when the deployment configures no base (an n8n on the firm's domain). */
const FALLBACK_WEBHOOK_BASE = 'https://n8n.votre-cabinet.fr';

/** The default webhook address of a type: the configured engine base plus the type's path. */
export function defaultWebhookUrl(type: WorkflowType): string {
  const base = runtimeConfig().workflowWebhookBaseUrl || FALLBACK_WEBHOOK_BASE;
  return `${base}/${WORKFLOW_TEMPLATES[type].webhookPath}`;
}
