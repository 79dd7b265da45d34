import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import type { Plugin } from 'vite';

/** Cloudscape's design tokens, one module of every CSS variable; /login needs some of them. */
const TOKENS = fileURLToPath(
  new URL(
    '../../node_modules/@cloudscape-design/components/internal/generated/styles/tokens.js',
    import.meta.url,
  ),
);

/** The chart modules that read the chart palette, and nothing but charts imports them. */
const CHART_PALETTE_READERS = [
  '/@cloudscape-design/components/internal/styles/colors.js',
  '/@cloudscape-design/components/internal/utils/create-category-color-scale.js',
];

const CHART_TOKENS_ID = '\0cloudscape-chart-tokens.js';

/**
 * Gives the chart palette's readers their own copy of Cloudscape's tokens module, so that the 51
 * chart colours they use land in the charts' chunk (the health dashboard's) instead of in the
 * tokens module /login loads: otherwise one dashboard costs /login's first load about 1.5 kB
 * compressed. The copy holds the same values; the bundler keeps only what the charts read.
 */
export function chartTokensApart(): Plugin {
  return {
    name: 'assistant:chart-tokens-apart',
    enforce: 'pre',
    resolveId(source, importer) {
      if (!importer || !/generated\/styles\/tokens(\.js)?$/.test(source)) return null;
      const from = importer.replaceAll('\\', '/');
      return CHART_PALETTE_READERS.some((reader) => from.endsWith(reader)) ? CHART_TOKENS_ID : null;
    },
    load(id) {
      return id === CHART_TOKENS_ID ? readFileSync(TOKENS, 'utf8') : null;
    },
  };
}
