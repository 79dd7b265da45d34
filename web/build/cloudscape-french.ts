import { createRequire } from 'node:module';

import type { Plugin } from 'vite';

/**
 * Cloudscape's French messages in two parts. The entry (/login's only script) takes, from this
 * virtual module, the messages of the components it draws itself; the whole catalogue (about
 * 8 kB compressed, charts, tables, date pickers...) is its own chunk, fetched with the first page
 * or form loaded later (web/src/cloudscape-french.tsx). /login no longer downloads the messages of
 * screens it never shows.
 */
export const FIRST_SCREEN_MESSAGES = 'virtual:cloudscape-french/first-screen';
const RESOLVED_ID = `\0${FIRST_SCREEN_MESSAGES}`;

/**
 * The Cloudscape components of the entry chunk that have French messages. The build fails when
 * the entry draws another one (a component added to /login or the toasts):
 * its labels would otherwise be missing until the whole catalogue arrives.
 */
export const FIRST_SCREEN_COMPONENTS = [
  'alert',
  'button',
  'error-boundary',
  'form',
  'form-field',
  'input',
  'link',
  'popover',
] as const;

/** The catalogue's messages of one locale by component, as Cloudscape ships them (compiled ICU). */
type ComponentMessages = Record<string, Record<string, unknown>>;

/** The package key of Cloudscape's catalogues (`I18nProviderProps.Messages`). */
const CATALOGUE_PACKAGE = 'cloudscape-design-components';

function frenchCatalogue(): ComponentMessages {
  const catalogue = createRequire(import.meta.url)(
    '@cloudscape-design/components/i18n/messages/all.fr.json',
  ) as Record<string, { fr: ComponentMessages }>;
  const french = catalogue[CATALOGUE_PACKAGE]?.fr;
  if (!french) throw new Error('Catalogue français de Cloudscape introuvable (all.fr.json)');
  return french;
}

/** The French messages of `components`, in the shape I18nProvider takes. */
export function firstScreenMessages(components: readonly string[] = FIRST_SCREEN_COMPONENTS) {
  const french = frenchCatalogue();
  const missing = components.filter((component) => !(component in french));
  if (missing.length > 0) throw new Error(`Pas de messages français pour ${missing.join(', ')}`);
  return {
    [CATALOGUE_PACKAGE]: {
      fr: Object.fromEntries(components.map((component) => [component, french[component]])),
    },
  };
}

/**
 * The components among `moduleIds` (a chunk's modules) that have French messages but are not in
 * `listed`: a module under `@cloudscape-design/components/<component>/` names its component.
 */
export function componentsWithoutMessages(
  moduleIds: readonly string[],
  listed: readonly string[] = FIRST_SCREEN_COMPONENTS,
): string[] {
  const french = frenchCatalogue();
  const drawn = new Set(
    moduleIds.flatMap((id) => {
      const component = /[\\/]@cloudscape-design[\\/]components[\\/]([\w-]+)[\\/]/.exec(id)?.[1];
      return component ? [component] : [];
    }),
  );
  return [...drawn].filter((component) => component in french && !listed.includes(component)).sort();
}

/** Serves the first screen's messages and checks, once the bundle is made, that they cover the entry. */
export function cloudscapeFrench(): Plugin {
  return {
    name: 'assistant:cloudscape-french',
    resolveId: (id) => (id === FIRST_SCREEN_MESSAGES ? RESOLVED_ID : null),
    load: (id) => (id === RESOLVED_ID ? `export default ${JSON.stringify(firstScreenMessages())};` : null),
    generateBundle(_options, bundle) {
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk' || !output.isEntry) continue;
        // The entry and the chunks it imports statically: what loads before any lazy page.
        const modules: string[] = [];
        const seen = new Set<string>();
        const visit = (fileName: string) => {
          const chunk = bundle[fileName];
          if (seen.has(fileName) || chunk?.type !== 'chunk') return;
          seen.add(fileName);
          modules.push(...chunk.moduleIds);
          for (const imported of chunk.imports) visit(imported);
        };
        visit(output.fileName);
        const missing = componentsWithoutMessages(modules);
        if (missing.length > 0) {
          this.error(
            `messages français de Cloudscape absents du premier écran : ${missing.join(', ')} ` +
              `(à ajouter à FIRST_SCREEN_COMPONENTS, web/build/cloudscape-french.ts)`,
          );
        }
      }
    },
  };
}
