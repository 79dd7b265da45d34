import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

/**
 * The areas' order inside a layer (docs/architecture.md): an area imports only areas of a lower
 * rank. `table` is the data layer's `core`.
 */
const AREA_RANK: Readonly<Record<string, number>> = {
  core: 0,
  table: 0,
  identity: 1,
  directory: 2,
  'second-factor': 3,
  billing: 3,
  scheduling: 3,
  health: 4,
  portability: 5,
};

/** The layers cut into area folders. */
const LAYERS = ['functions/domain', 'functions/data', 'functions/adapters', 'functions/handlers'];

/** Every `.ts` file under a folder, as paths from the repository's root. */
function sourcesUnder(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.ts'))
    .map((path) => join(folder, path));
}

/** The relative imports of a file, resolved to paths from the repository's root. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return [...text.matchAll(/from '(\.[^']+)'/g)].map((match) =>
    relative(ROOT, resolve(ROOT, dirname(file), match[1] as string)),
  );
}

/** The area of a path inside a layer, or null when the path is elsewhere. */
function areaOf(layer: string, path: string): string | null {
  const below = relative(layer, path);
  if (below.startsWith('..')) return null;
  const [area, ...rest] = below.split('/');
  return rest.length > 0 ? (area ?? null) : null;
}

describe('the areas of a layer', () => {
  it.each(LAYERS)('%s holds only the known areas', (layer) => {
    const areas = readdirSync(join(ROOT, layer), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(areas.filter((area) => AREA_RANK[area] === undefined)).toEqual([]);
  });

  it.each(LAYERS)('%s imports its areas one way: only areas below their own', (layer) => {
    const upward: string[] = [];
    for (const file of sourcesUnder(layer)) {
      const from = areaOf(layer, file);
      if (from === null) continue;
      for (const target of importsOf(file)) {
        const to = areaOf(layer, target);
        if (to === null || to === from) continue;
        if ((AREA_RANK[to] ?? 0) >= (AREA_RANK[from] ?? 0)) upward.push(`${file} -> ${target}`);
      }
    }
    expect(upward).toEqual([]);
  });
});
