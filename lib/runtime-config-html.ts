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
 * index.html with the runtime settings in its data block, so the SPA starts without a request;
 * @param json the settings as JSON text (a CDK token string at synthesis stays text)
 */
export function inlineRuntimeConfig(html: string, json: string): string {
  const block = `<script id="${RUNTIME_CONFIG_ELEMENT_ID}" type="application/json">${escapeForScript(json)}</script>`;
  if (DATA_BLOCK.test(html)) return html.replace(DATA_BLOCK, () => block);
  if (!html.includes('</head>'))
    throw new Error('index.html sans </head> : impossible d’y écrire la configuration');
  return html.replace('</head>', () => `    ${block}\n  </head>`);
}
