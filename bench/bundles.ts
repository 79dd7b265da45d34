import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

import { type BuildOptions, build } from 'esbuild';

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
  readonly importMs: number;
  /** The packages in the bundle, largest first (KB of their code in the output). */
  readonly packages: readonly string[];
}

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
  file: string,
  externals: readonly string[],
  runs = 5,
  nodeOptions: readonly string[] = [],
): number {
  const script = [
    'const t=performance.now();',
    `await import(${JSON.stringify(file)});`,
    `await Promise.all(${JSON.stringify(externals)}.map((m)=>import(m)));`,
    'console.log(performance.now()-t)',
  ].join('');
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
    // The AWS SDK clients the bundle leaves to the runtime: a cold start loads them too.
    const externals = [
      ...new Set(
        Object.values(result.metafile.outputs).flatMap((output) =>
          output.imports.filter((i) => i.external).map((i) => i.path),
        ),
      ),
    ].filter((path) => path.startsWith('@aws-sdk/'));
    figures.push({
      name: spec.name,
      minifiedBytes: code.length,
      gzipBytes: gzipSync(code).length,
      importMs: importTime(outfile, externals, 5, spec.nodeOptions),
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
