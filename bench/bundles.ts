import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

import { type BuildOptions, build } from 'esbuild';

/** One function's bundle: where it comes from and how esbuild builds it. */
export interface BundleSpec {
  readonly name: string;
  readonly entry: string;
  readonly options: BuildOptions;
}

/** What `npm run bench` prints per function. */
export interface BundleFigures {
  readonly name: string;
  readonly minifiedBytes: number;
  readonly gzipBytes: number;
  readonly importMs: number;
  /** The packages in the bundle, largest first (KB of their code in the output). */
  readonly packages: readonly string[];
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

/**
 * Milliseconds a fresh `node` process takes to import the bundle (median of `runs` processes,
 * each timing its own `import()` with `performance.now()`, so process start-up is left out).
 */
export function importTime(file: string, runs = 5, nodeOptions: readonly string[] = []): number {
  const script = `const t=performance.now();await import(${JSON.stringify(file)});console.log(performance.now()-t)`;
  const times: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const result = spawnSync(process.execPath, [...nodeOptions, '--input-type=module', '-e', script], {
      encoding: 'utf8',
      env: { ...process.env, AWS_REGION: 'eu-west-3' },
    });
    if (result.status !== 0) throw new Error(`import of ${file} failed: ${result.stderr}`);
    times.push(Number(result.stdout.trim()));
  }
  return median(times);
}

/**
 * Builds each bundle into `outDir/<name>/index.mjs` with esbuild's metafile, and measures it.
 * `outDir` must be inside the repository: a bundle that leaves the AWS SDK external imports it
 * from the repository's node_modules, standing in for the copy the Lambda runtime provides.
 */
export async function measureBundles(specs: readonly BundleSpec[], outDir: string): Promise<BundleFigures[]> {
  rmSync(outDir, { recursive: true, force: true });
  const figures: BundleFigures[] = [];
  for (const spec of specs) {
    const dir = join(outDir, spec.name);
    mkdirSync(dir, { recursive: true });
    const outfile = join(dir, 'index.mjs');
    const result = await build({
      ...spec.options,
      entryPoints: [spec.entry],
      outfile,
      metafile: true,
      write: true,
    });
    writeFileSync(join(dir, 'metafile.json'), JSON.stringify(result.metafile));
    const code = readFileSync(outfile);
    figures.push({
      name: spec.name,
      minifiedBytes: code.length,
      gzipBytes: gzipSync(code).length,
      importMs: importTime(outfile),
      packages: packagesOf(result.metafile),
    });
  }
  return figures;
}

/** The npm packages of a bundle by bytes of output, largest first (`stripe 247 KB`). */
export function packagesOf(metafile: import('esbuild').Metafile): string[] {
  const sizes = new Map<string, number>();
  for (const output of Object.values(metafile.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
      const name = match?.[1] ?? '(project)';
      sizes.set(name, (sizes.get(name) ?? 0) + bytesInOutput);
    }
  }
  return [...sizes.entries()]
    .sort((a, b) => b[1] - a[1])
    .map(([name, bytes]) => `${name} ${(bytes / 1024).toFixed(0)}`);
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);

/** The table of figures, Markdown. */
export function bundlesMarkdown(figures: readonly BundleFigures[]): string {
  const rows = figures.map(
    (f) =>
      `| ${f.name} | ${kb(f.minifiedBytes)} | ${kb(f.gzipBytes)} | ${f.importMs.toFixed(1)} | ${f.packages.slice(0, 4).join(', ')} |`,
  );
  return [
    '| function | minified KB | gzip KB | import ms (median of 5) | largest parts (KB) |',
    '| --- | ---: | ---: | ---: | --- |',
    ...rows,
  ].join('\n');
}
