import { EXAMPLE_LEGAL_DETAILS, type LegalDetails } from './legal-details';

/*
 * Settings a pre-rendered page shows (the hosting region and the legal details of /privacy) are
 * known only when the site is served: the build renders a slot in their place, and the servers
 * fill it from the runtime settings they write into the page (the local server, the deployment).
 */

const slot = (name: string) => `{{${name}}}`;

/** The settings the pre-rendering renders with: a slot wherever a setting shows. */
export const PRERENDER_SLOT_SETTINGS = {
  hostingRegion: slot('hostingRegion'),
  legal: Object.fromEntries(
    Object.keys(EXAMPLE_LEGAL_DETAILS).map((field) => [field, slot(`legal.${field}`)]),
  ) as unknown as LegalDetails,
};

/** Names of the AWS regions a stage may be deployed in, as a reader knows them. */
const REGION_NAMES: Readonly<Record<string, string>> = {
  'eu-west-3': 'Paris, France',
  'eu-west-1': 'Irlande',
  'eu-central-1': 'Francfort, Allemagne',
  'eu-central-2': 'Zurich, Suisse',
  'eu-south-1': 'Milan, Italie',
  'eu-south-2': 'Espagne',
  'eu-north-1': 'Stockholm, Suède',
  'eu-west-2': 'Londres, Royaume-Uni',
  'us-east-1': 'Virginie du Nord, États-Unis',
};

/** "Paris, France (eu-west-3)": the region of the stage as the privacy page names it. */
export const hostingRegionLabel = (region: string) =>
  REGION_NAMES[region] ? `${REGION_NAMES[region]} (${region})` : region;

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#x27;',
};
const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character] ?? character);

/**
 * A pre-rendered page with its slots filled from the runtime settings (escaped as React escapes
 * text and attributes, so that the page hydrates as rendered). Settings missing from `config`
 * take their defaults: the example legal details.
 */
export function fillPrerenderSlots(
  html: string,
  config: { readonly hostingRegion?: unknown; readonly legal?: unknown },
  defaultRegion: string,
): string {
  const region = typeof config.hostingRegion === 'string' ? config.hostingRegion : defaultRegion;
  const legal = { ...EXAMPLE_LEGAL_DETAILS, ...(config.legal as Partial<LegalDetails> | undefined) };
  let filled = html.replaceAll(PRERENDER_SLOT_SETTINGS.hostingRegion, escapeHtml(hostingRegionLabel(region)));
  for (const field of Object.keys(EXAMPLE_LEGAL_DETAILS) as (keyof LegalDetails)[]) {
    filled = filled.replaceAll(PRERENDER_SLOT_SETTINGS.legal[field], escapeHtml(String(legal[field])));
  }
  return filled;
}
