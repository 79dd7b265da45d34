import { createRequire } from 'node:module';

import type { Plugin } from 'vite';
import { describe, expect, it } from 'vitest';

import {
  cloudscapeFrench,
  componentsWithoutMessages,
  FIRST_SCREEN_COMPONENTS,
  FIRST_SCREEN_MESSAGES,
  firstScreenMessages,
} from '../../../../web/build/cloudscape-french';

const catalogue = createRequire(import.meta.url)(
  '@cloudscape-design/components/i18n/messages/all.fr.json',
) as { 'cloudscape-design-components': { fr: Record<string, unknown> } };
const french = catalogue['cloudscape-design-components'].fr;

const moduleOf = (component: string) =>
  `/app/node_modules/@cloudscape-design/components/${component}/internal.js`;

/** Runs the plugin's end-of-bundle check on an entry chunk of these modules, importing a chunk of those. */
function checkEntry(moduleIds: string[], importedModuleIds: string[] = []) {
  const plugin = cloudscapeFrench() as Plugin & {
    generateBundle: (this: { error: (message: string) => never }, options: object, bundle: object) => void;
  };
  plugin.generateBundle.call(
    {
      error: (message: string) => {
        throw new Error(message);
      },
    },
    {},
    {
      'assets/index.js': {
        type: 'chunk',
        fileName: 'assets/index.js',
        isEntry: true,
        moduleIds,
        imports: ['assets/shared.js'],
      },
      'assets/shared.js': {
        type: 'chunk',
        fileName: 'assets/shared.js',
        isEntry: false,
        moduleIds: importedModuleIds,
        imports: [],
      },
      'assets/page.js': {
        type: 'chunk',
        fileName: 'assets/page.js',
        isEntry: false,
        moduleIds: [moduleOf('table')],
        imports: [],
      },
    },
  );
}

describe("the first screen's Cloudscape messages", () => {
  it('are the French catalogue of the listed components, as shipped, and nothing else', () => {
    const messages = firstScreenMessages();

    expect(Object.keys(messages['cloudscape-design-components'].fr).sort()).toEqual(
      [...FIRST_SCREEN_COMPONENTS].sort(),
    );
    expect(messages['cloudscape-design-components'].fr['form-field']).toEqual(french['form-field']);
    expect(JSON.stringify(messages)).toContain('"Erreur"');
    expect(JSON.stringify(messages)).not.toContain('Page suivante');
  });

  it('refuses a component the catalogue has no messages for', () => {
    expect(() => firstScreenMessages(['alert', 'bouton-imaginaire'])).toThrow('bouton-imaginaire');
  });

  it('are served as a module of their own name', () => {
    const plugin = cloudscapeFrench() as Plugin & {
      resolveId: (id: string) => string | null;
      load: (id: string) => string | null;
    };
    const resolved = plugin.resolveId(FIRST_SCREEN_MESSAGES);

    expect(resolved).not.toBeNull();
    expect(plugin.resolveId('react')).toBeNull();
    expect(plugin.load(resolved ?? '')).toBe(`export default ${JSON.stringify(firstScreenMessages())};`);
  });
});

describe('the check of the entry chunk', () => {
  it('names the components with messages that the list lacks, and only those', () => {
    const modules = [
      moduleOf('alert'),
      moduleOf('table'),
      moduleOf('box'),
      moduleOf('pagination'),
      '/app/web/src/app.tsx',
    ];

    expect(componentsWithoutMessages(modules)).toEqual(['pagination', 'table']);
  });

  it('fails the build when the entry draws a component without its messages', () => {
    expect(() => checkEntry([moduleOf('input'), moduleOf('date-picker')])).toThrow(
      /premier écran : date-picker/,
    );
  });

  it('checks the chunks the entry imports statically too', () => {
    expect(() => checkEntry([moduleOf('input')], [moduleOf('select')])).toThrow(/premier écran : select/);
  });

  it('lets a build through whose entry draws only listed components, whatever lazy pages draw', () => {
    expect(() => checkEntry(FIRST_SCREEN_COMPONENTS.map(moduleOf), [moduleOf('box')])).not.toThrow();
  });
});
