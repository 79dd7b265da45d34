import { z } from 'zod';

import { DEFAULT_HOSTING_REGION, RUNTIME_CONFIG_ELEMENT_ID } from '../../../shared/constants';
import { EXAMPLE_LEGAL_DETAILS, LegalDetails } from '../../../shared/legal-details';

/**
 * The SPA's runtime settings, written into index.html (and as `/config.json`) at deploy time and by
 * the local runtime.
 */
export const RuntimeConfig = z.object({
  /** Origin of the API; empty for the same origin (the default: CloudFront serves both). */
  apiBaseUrl: z
    .string()
    .default('')
    .transform((value) => value.replace(/\/+$/, '')),
  /**
   * Base address of the firm's workflow engine (n8n) webhooks: the automation dialog pre-fills
   * `<base>/<path of the type>`. The local runtime points it at its demo webhook receiver.
   */
  workflowWebhookBaseUrl: z
    .string()
    .default('')
    .transform((value) => value.replace(/\/+$/, '')),
  /** The AWS region the stage's data lives in (the CDK stack's), named on the privacy page. */
  hostingRegion: z
    .string()
    .regex(/^[a-z]{2}(-[a-z]+)+-\d$/)
    .catch(DEFAULT_HOSTING_REGION)
    .default(DEFAULT_HOSTING_REGION),
  /** The publisher's legal details (a deployment setting), shown on /privacy; examples until set. */
  legal: LegalDetails.catch(EXAMPLE_LEGAL_DETAILS).default(EXAMPLE_LEGAL_DETAILS),
});
export type RuntimeConfig = z.infer<typeof RuntimeConfig>;

export const DEFAULT_RUNTIME_CONFIG: RuntimeConfig = {
  apiBaseUrl: '',
  workflowWebhookBaseUrl: '',
  hostingRegion: DEFAULT_HOSTING_REGION,
  legal: EXAMPLE_LEGAL_DETAILS,
};

let current: RuntimeConfig = DEFAULT_RUNTIME_CONFIG;

/** The settings loaded at start (the defaults until then, and in component tests). */
export function runtimeConfig(): RuntimeConfig {
  return current;
}

/** Keeps the settings read at start for the components that need them. */
export function setRuntimeConfig(config: RuntimeConfig): void {
  current = config;
}

function parseRuntimeConfig(value: unknown): RuntimeConfig | undefined {
  const parsed = RuntimeConfig.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/**
 * The settings the server wrote into index.html's data block, or undefined when it is empty (the
 * Vite dev server, a page served as a plain file) or unreadable.
 */
export function readInlineRuntimeConfig(): RuntimeConfig | undefined {
  const text = document.getElementById(RUNTIME_CONFIG_ELEMENT_ID)?.textContent?.trim();
  if (!text) return undefined;
  try {
    return parseRuntimeConfig(JSON.parse(text));
  } catch {
    return undefined;
  }
}

/**
 * The settings before the first render: those inlined in index.html, with no request; otherwise
 * `/config.json`. A missing, unreadable or malformed file is not an error: the SPA then talks to the
 * API on its own origin.
 */
export async function loadRuntimeConfig(): Promise<RuntimeConfig> {
  const inline = readInlineRuntimeConfig();
  if (inline) return inline;
  try {
    const response = await fetch('/config.json', {
      headers: { accept: 'application/json' },
      cache: 'no-store',
    });
    if (!response.ok) return DEFAULT_RUNTIME_CONFIG;
    return parseRuntimeConfig(await response.json()) ?? DEFAULT_RUNTIME_CONFIG;
  } catch {
    return DEFAULT_RUNTIME_CONFIG;
  }
}
