import { RUNTIME_CONFIG_ELEMENT_ID } from '../shared/constants';

/** The settings' data block: JSON, which the browser never executes, so the strict CSP allows it. */
const DATA_BLOCK = new RegExp(
  `<script id="${RUNTIME_CONFIG_ELEMENT_ID}" type="application/json">[^<]*</script>`,
);

/**
 * JSON made safe inside a `<script>` element: `<` (a `</script>` or `<!--` in a value) and the
 * two line separators JavaScript once disallowed are written as escapes, which JSON.parse reads back.
 */
function escapeForScript(json: string): string {
  return json
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * index.html with the SPA's runtime settings written into its data block (web/index.html), so the
 * SPA starts without fetching /config.json. A page without the block (built before it existed)
 * gets one before `</head>`.
 *
 * @param json the settings as JSON text (a CDK token string at synthesis is fine: it stays text)
 */
export function inlineRuntimeConfig(html: string, json: string): string {
  const block = `<script id="${RUNTIME_CONFIG_ELEMENT_ID}" type="application/json">${escapeForScript(json)}</script>`;
  if (DATA_BLOCK.test(html)) return html.replace(DATA_BLOCK, () => block);
  if (!html.includes('</head>'))
    throw new Error('index.html sans </head> : impossible d’y écrire la configuration');
  return html.replace('</head>', () => `    ${block}\n  </head>`);
}
