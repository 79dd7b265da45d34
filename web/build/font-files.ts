import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';

import type { Plugin } from 'vite';

/** Cloudscape's global styles: normalize, the dark-mode rules and Open Sans, inlined as base64. */
const GLOBAL_STYLES = /[\\/]@cloudscape-design[\\/]global-styles[\\/]index\.css$/;
const INLINE_WOFF2 = /url\((['"]?)data:font\/woff2;base64,([A-Za-z0-9+/=]+)\1\)/g;

/**
 * Serves Cloudscape's fonts as woff2 files instead of base64 inside the CSS: the global styles
 * ship 8 Open Sans faces (about 180 kB of base64) that every page would download before its first
 * paint, though a page uses two or three of them. Each face is written once to Vite's cache
 * folder and the CSS points at that file, so Vite emits it as a hashed asset that the browser
 * fetches only when a text uses it. `font-display: swap` lets the text show in the fallback font
 * meanwhile instead of staying invisible.
 */
export function fontFiles(): Plugin {
  let fontDirectory = '';
  return {
    name: 'assistant:font-files',
    apply: 'build',
    enforce: 'pre',
    configResolved(config) {
      fontDirectory = join(config.cacheDir, 'font-files');
    },
    transform(code, id) {
      const file = id.split('?')[0] ?? id;
      if (!GLOBAL_STYLES.test(file)) return null;
      mkdirSync(fontDirectory, { recursive: true });
      let faces = 0;
      const css = code
        .replace(INLINE_WOFF2, (_match, _quote: string, base64: string) => {
          const font = Buffer.from(base64, 'base64');
          const name = `open-sans-${createHash('sha256').update(font).digest('hex').slice(0, 16)}.woff2`;
          const path = join(fontDirectory, name);
          if (!existsSync(path)) writeFileSync(path, font);
          faces += 1;
          return `url('${relative(dirname(file), path).split(sep).join('/')}')`;
        })
        .replace(/@font-face\s*\{/g, '@font-face {\n  font-display: swap;');
      if (faces === 0) {
        // A new version of the package changed how it ships its fonts: better to know than to
        // silently ship them inlined again.
        this.warn('aucune police woff2 en base64 trouvée dans les styles globaux de Cloudscape');
      }
      return { code: css, map: null };
    },
  };
}
