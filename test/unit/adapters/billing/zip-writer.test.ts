import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';

import { csvField } from '../../../../functions/adapters/billing/export-archive';
import { ZipWriter } from '../../../../functions/adapters/billing/zip-writer';

const directory = mkdtempSync(join(tmpdir(), 'zip-writer-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

async function zipOf(files: Record<string, (string | Buffer)[]>): Promise<string> {
  const chunks: Buffer[] = [];
  const zip = new ZipWriter({ write: async (chunk) => void chunks.push(chunk) });
  for (const [name, content] of Object.entries(files)) await zip.addFile(name, content);
  const size = await zip.close();
  const path = join(directory, `${Math.random().toString(36).slice(2)}.zip`);
  writeFileSync(path, Buffer.concat(chunks));
  expect(readFileSync(path).length).toBe(size);
  return path;
}

describe('the ZIP writer', () => {
  it('writes archives the standard unzip tests and extracts as written, accents and large files included', async () => {
    const large = Array.from({ length: 20_000 }, (_, index) => `ligne ${index} : pièce « ${index % 97} »\n`);
    const path = await zipOf({
      'historique.csv': large,
      'comptes-rendus.json': ['[', '{"résumé":"3 e-mails classés"}', ']'],
      'vide.txt': [],
      'README.txt': [Buffer.from('Export des données\n')],
    });
    expect(execFileSync('unzip', ['-t', path]).toString()).toContain('No errors detected');
    expect(execFileSync('unzip', ['-p', path, 'historique.csv']).toString()).toBe(large.join(''));
    expect(execFileSync('unzip', ['-p', path, 'comptes-rendus.json']).toString()).toBe(
      '[{"résumé":"3 e-mails classés"}]',
    );
    expect(execFileSync('unzip', ['-Z1', path]).toString().split('\n').filter(Boolean)).toEqual([
      'historique.csv',
      'comptes-rendus.json',
      'vide.txt',
      'README.txt',
    ]);
  });

  it('keeps any text byte for byte', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.string({ unit: 'grapheme', maxLength: 200 }), { maxLength: 20 }),
        async (parts) => {
          const path = await zipOf({ 'texte.txt': parts });
          expect(execFileSync('unzip', ['-p', path, 'texte.txt']).toString('utf8')).toBe(parts.join(''));
        },
      ),
      { numRuns: 25 },
    );
  });
});

describe('a CSV field', () => {
  it('is quoted only when it must be, quotes doubled (RFC 4180)', () => {
    expect(csvField('Classement')).toBe('Classement');
    expect(csvField('Dupont, Durand')).toBe('"Dupont, Durand"');
    expect(csvField('dit "urgent"\nà traiter')).toBe('"dit ""urgent""\nà traiter"');
    expect(csvField(null)).toBe('');
    expect(csvField(12)).toBe('12');
  });
});
