import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

import { type BuildOptions, build } from 'esbuild';

import { type FunctionName, NEEDS } from '../functions/needs';
import { unusedLoads } from '../lib/constructs/bundling';
import { before, beforeHeading } from './baseline';

/** One function's bundle: where it comes from and how esbuild builds it. */
export interface BundleSpec {
  readonly name: string;
  readonly entry: string;
  readonly options: BuildOptions;
  /** Node options of the deployed function (`--enable-source-maps` before this change). */
  readonly nodeOptions?: readonly string[];
}

/** What `npm run bench` prints per function. */
export interface BundleFigures {
  readonly name: string;
  readonly minifiedBytes: number;
  readonly gzipBytes: number;
  /** Import of the bundle and of every module it leaves to Lambda (the SDK, Powertools' layer). */
  readonly importMs: number;
  /** The packages in the bundle, largest first (KB of their code in the output). */
  readonly packages: readonly string[];
  /** The modules it leaves to Lambda: the AWS SDK clients and Powertools utilities it loads. */
  readonly externals: readonly string[];
  /** Import of Powertools' Tracer alone in a fresh process (null: not loaded by this function). */
  readonly tracerMs: number | null;
  /** Import of its AWS SDK clients alone, together, in a fresh process (null: none loaded). */
  readonly sdkMs: number | null;
}

const repositoryRoot = fileURLToPath(new URL('..', import.meta.url));

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

/**
 * Milliseconds a fresh `node` process takes to import the bundle and the external modules it
 * imports (the AWS SDK clients, which the Lambda runtime provides and a cold start loads too):
 * the median of `runs` processes, each timing its own imports with `performance.now()`, so
 * process start-up is left out. The bundle lies inside the repository, so the SDK resolves to
 * the repository's node_modules, standing in for the runtime's copy.
 */
export function importTime(
  file: string | null,
  externals: readonly string[],
  runs = 5,
  nodeOptions: readonly string[] = [],
): number {
  const script = [
    'const t=performance.now();',
    file === null ? '' : `await import(${JSON.stringify(file)});`,
    `await Promise.all(${JSON.stringify(externals)}.map((m)=>import(m)));`,
    'console.log(performance.now()-t)',
  ].join('');
  const times: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const result = spawnSync(process.execPath, [...nodeOptions, '--input-type=module', '-e', script], {
      encoding: 'utf8',
      env: { ...process.env, AWS_REGION: 'eu-west-3' },
      // From the repository, whose node_modules stand in for Lambda's SDK and Powertools' layer.
      cwd: repositoryRoot,
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
    // What the bundle leaves to Lambda (the runtime's AWS SDK, Powertools' layer): a cold start
    // loads it too, so it is imported with the bundle.
    const externals = [
      ...new Set(
        Object.values(result.metafile.outputs).flatMap((output) =>
          output.imports.filter((i) => i.external).map((i) => i.path),
        ),
      ),
    ].filter((path) => path.startsWith('@aws-sdk/') || path.startsWith('@aws-lambda-powertools/'));
    const sdk = externals.filter((path) => path.startsWith('@aws-sdk/'));
    const tracer = externals.filter((path) => path.startsWith('@aws-lambda-powertools/tracer'));
    figures.push({
      name: spec.name,
      minifiedBytes: code.length,
      gzipBytes: gzipSync(code).length,
      importMs: importTime(outfile, externals, 5, spec.nodeOptions),
      packages: packagesOf(result.metafile),
      externals,
      tracerMs: tracer.length > 0 ? importTime(null, tracer, 5) : null,
      sdkMs: sdk.length > 0 ? importTime(null, sdk, 5) : null,
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

const share = (part: number | null, whole: number) =>
  part === null ? '—' : `${part.toFixed(0)} (${Math.round((100 * part) / whole)} %)`;

/** The short names of what a bundle leaves to Lambda: `tracer`, `client-sqs`… */
const shortName = (external: string) => external.replace(/^@aws-(sdk|lambda-powertools)\//, '');

/** The figures a baseline keeps of each function, by name. */
export function bundleFigures(figures: readonly BundleFigures[]): Record<string, number | null> {
  return Object.fromEntries(
    figures.flatMap((f) => [
      [`${f.name} importMs`, f.importMs],
      [`${f.name} tracerMs`, f.tracerMs],
      [`${f.name} sdkMs`, f.sdkMs],
    ]),
  );
}

/** The table of figures, Markdown, with the import time measured before beside today's. */
export function bundlesMarkdown(figures: readonly BundleFigures[]): string {
  const earlier = (name: string) => {
    const value = before('bundles', `${name} importMs`);
    return typeof value === 'number' ? value.toFixed(1) : '—';
  };
  const rows = figures.map(
    (f) =>
      `| ${f.name} | ${kb(f.minifiedBytes)} | ${kb(f.gzipBytes)} | ${earlier(f.name)} | ${f.importMs.toFixed(1)} | ${share(f.tracerMs, f.importMs)} | ${share(f.sdkMs, f.importMs)} | ${f.externals.map(shortName).join(', ')} | ${f.packages.slice(0, 4).join(', ')} |`,
  );
  return [
    `| function | minified KB | gzip KB | import ms ${beforeHeading()} | import ms, with what Lambda provides (median of 5) | Tracer alone, ms (share) | SDK clients alone, ms (share) | loaded from Lambda | largest parts (KB) |`,
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |',
    ...rows,
  ].join('\n');
}

/** The externals a function loads that none of its declared needs uses (`lib/constructs/bundling.ts`). */
export function unusedLoadsOf(name: string, externals: readonly string[]): string[] {
  const needs = NEEDS[name as FunctionName];
  return needs ? unusedLoads(needs, externals) : [];
}

/** The functions and esbuild settings of a commit from before the declared needs: SDK bundled, source maps. */
export function baselineSpecs(sourceRoot: string, names: readonly string[]): BundleSpec[] {
  const options: BuildOptions = {
    bundle: true,
    platform: 'node',
    target: 'node22',
    format: 'esm',
    minify: true,
    sourcemap: true,
    mainFields: ['module', 'main'],
    banner: { js: "import { createRequire } from 'module';const require = createRequire(import.meta.url);" },
    logLevel: 'error',
  };
  return names.map((name) => ({
    name,
    entry: join(sourceRoot, 'functions', `${name}.ts`),
    options,
    nodeOptions: ['--enable-source-maps'],
  }));
}

/** The sources of a commit, extracted (functions/ and shared/ only) under `dir`. */
export function extractCommit(commit: string, dir: string, repository: string): string {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const archive = execFileSync('git', ['-C', repository, 'archive', commit, 'functions', 'shared']);
  execFileSync('tar', ['-x', '-C', dir], { input: archive });
  return dir;
}
