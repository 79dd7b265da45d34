import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const RESULTS = fileURLToPath(new URL('./results.md', import.meta.url));

/**
 * Replaces one `## <title>` section of bench/results.md (up to the next `## ` heading), or adds it
 * at the end: a part run alone (`npx tsx bench/<part>.ts`) keeps the other parts' figures.
 */
export function replaceResultsSection(title: string, markdown: string): void {
  const current = existsSync(RESULTS) ? readFileSync(RESULTS, 'utf8') : '# Benchmarks\n';
  const section = `## ${title}\n\n${markdown.trim()}\n`;
  const lines = current.split('\n');
  const start = lines.indexOf(`## ${title}`);
  if (start === -1) {
    writeFileSync(RESULTS, `${current.trimEnd()}\n\n${section}`);
    return;
  }
  const next = lines.findIndex((line, index) => index > start && line.startsWith('## '));
  const before = lines.slice(0, start).join('\n').trimEnd();
  const after = next === -1 ? '' : `\n${lines.slice(next).join('\n')}`;
  writeFileSync(RESULTS, `${before}\n\n${section}${after}`);
}
