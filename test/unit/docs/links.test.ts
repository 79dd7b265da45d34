import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const DOCUMENTS = [
  join(ROOT, 'README.md'),
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => join(ROOT, 'docs', name)),
];

/** A Markdown file without its fenced code blocks, where a `#` line is no heading and `[a](b)` no link. */
const withoutFences = (markdown: string) => markdown.replace(/^```[\s\S]*?^```/gm, '');

/** Where each `[text](target)` of a document points, external addresses left out. */
function relativeLinks(markdown: string): string[] {
  return [
    ...withoutFences(markdown)
      .replace(/`[^`\n]*`/g, '')
      .matchAll(/\]\(([^)\s]+)\)/g),
  ]
    .map(([, target = '']) => target)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

/** The anchors GitHub gives a document's headings: lower case, punctuation dropped, spaces as hyphens. */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading = ''] of withoutFences(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const text = heading.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    const slug = text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

describe('links of the README and docs/', () => {
  it('reads the anchors GitHub gives headings', () => {
    expect(
      headingAnchors('## 3. Deploying a stage\n### `needs.ts`: what may it touch?\n## Données\n## Données'),
    ).toEqual(new Set(['3-deploying-a-stage', 'needsts-what-may-it-touch', 'données', 'données-1']));
    expect(relativeLinks('[a](docs/a.md#x) [b](https://example.com) `[c](d.md)` [e](#f)')).toEqual([
      'docs/a.md#x',
      '#f',
    ]);
  });

  for (const document of DOCUMENTS) {
    const name = relative(ROOT, document);
    it(`${name}: every relative link names a file of the repository, and a heading of it`, () => {
      const broken: string[] = [];
      for (const link of relativeLinks(readFileSync(document, 'utf8'))) {
        const [path = '', anchor] = link.split('#');
        const target = path === '' ? document : resolve(dirname(document), decodeURI(path));
        if (!existsSync(target)) {
          broken.push(`${link}: no such file`);
          continue;
        }
        if (anchor && statSync(target).isFile() && target.endsWith('.md')) {
          if (!headingAnchors(readFileSync(target, 'utf8')).has(anchor)) {
            broken.push(`${link}: no heading with that anchor in ${relative(ROOT, target)}`);
          }
        }
      }
      expect(broken).toEqual([]);
    });
  }
});
