import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

import type { Manifest, Plugin } from 'vite';

/** What /login may download before it shows, gzipped (issue 11): a phone on a poor network. */
export const LOGIN_BUDGET = { javascriptBytes: 200_000, cssBytes: 100_000 } as const;

export interface LoginBudget {
  readonly javascriptBytes: number;
  readonly cssBytes: number;
}

/**
 * The modules /login starts from, as the Vite manifest names them: the entry of index.html (the
 * router, the session, the card layout and the login page, kept in the entry). Their static
 * imports and CSS follow from the manifest. A part of /login made lazy must be added here.
 */
export const LOGIN_MODULES = ['index.html'] as const;

/** Where `build.manifest: true` writes the manifest, inside the output folder. */
export const MANIFEST_PATH = '.vite/manifest.json';

export interface FilesWeight {
  readonly files: readonly string[];
  readonly rawBytes: number;
  readonly gzipBytes: number;
}

export interface PageWeight {
  readonly javascript: FilesWeight;
  readonly css: FilesWeight;
}

/**
 * The JavaScript and CSS files a page loads: its modules' chunks, their static imports (which
 * Vite preloads with them), transitively, and the CSS of every one of them. Dynamic imports are
 * left out: they load on a later navigation.
 */
export function pageFiles(
  manifest: Manifest,
  modules: readonly string[],
): { javascript: string[]; css: string[] } {
  const javascript = new Set<string>();
  const css = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`Le manifeste de Vite ne contient pas ${key}`);
    if (chunk.file.endsWith('.js')) javascript.add(chunk.file);
    else if (chunk.file.endsWith('.css')) css.add(chunk.file);
    for (const file of chunk.css ?? []) css.add(file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const module of modules) visit(module);
  return { javascript: [...javascript].sort(), css: [...css].sort() };
}

function weigh(distDirectory: string, files: readonly string[]): FilesWeight {
  let rawBytes = 0;
  let gzipBytes = 0;
  for (const file of files) {
    const content = readFileSync(join(distDirectory, file));
    rawBytes += content.length;
    gzipBytes += gzipSync(content).length;
  }
  return { files, rawBytes, gzipBytes };
}

export function readManifest(distDirectory: string): Manifest {
  return JSON.parse(readFileSync(join(distDirectory, MANIFEST_PATH), 'utf8')) as Manifest;
}

/** The weight of a built page's JavaScript and CSS, raw and gzipped (zlib's default level). */
export function pageWeight(distDirectory: string, modules: readonly string[] = LOGIN_MODULES): PageWeight {
  const files = pageFiles(readManifest(distDirectory), modules);
  return { javascript: weigh(distDirectory, files.javascript), css: weigh(distDirectory, files.css) };
}

export const kilobytes = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

/** The budget's verdict, one line per kind, and whether it is passed. */
export function loginBudgetReport(
  weight: PageWeight,
  budget: LoginBudget = LOGIN_BUDGET,
): { readonly lines: string[]; readonly over: boolean } {
  const rows = [
    ['JavaScript', weight.javascript, budget.javascriptBytes],
    ['CSS', weight.css, budget.cssBytes],
  ] as const;
  return {
    lines: rows.map(
      ([kind, { gzipBytes, rawBytes, files }, budget]) =>
        `/login ${kind} : ${kilobytes(gzipBytes)} gzip (budget ${kilobytes(budget)}), ` +
        `${kilobytes(rawBytes)} brut, ${files.length} fichier(s)` +
        (gzipBytes > budget ? ' — BUDGET DÉPASSÉ' : ''),
    ),
    over: rows.some(([, { gzipBytes }, budget]) => gzipBytes > budget),
  };
}

/** Fails the build when what /login loads passes its budget, read from the Vite manifest. */
export function loginBudget(budget: LoginBudget = LOGIN_BUDGET): Plugin {
  return {
    name: 'assistant:login-budget',
    apply: 'build',
    writeBundle(options) {
      if (!options.dir) this.error('le budget de /login a besoin du dossier de sortie');
      const report = loginBudgetReport(pageWeight(options.dir), budget);
      for (const line of report.lines) this.info(line);
      if (report.over) this.error(`budget de /login dépassé :\n${report.lines.join('\n')}`);
    },
  };
}
