import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

import { describe, expect, it } from 'vitest';

/* The house rules of the tests themselves (docs/architecture.md, "Tests"), the ones a reader can check. */

const ROOT = resolve(import.meta.dirname, '../..');
const TEST = join(ROOT, 'test');

/** Every test file of a project folder (`unit`, `web`…), as paths from the repository's root. */
function testFilesOf(project: string): string[] {
  return readdirSync(join(TEST, project), { recursive: true, encoding: 'utf8' })
    .filter((path) => /\.test\.tsx?$/.test(path))
    .map((path) => relative(ROOT, join(TEST, project, path)));
}

const PROJECTS = readdirSync(TEST).filter(
  (entry) => entry !== 'support' && statSync(join(TEST, entry)).isDirectory(),
);
const ALL = PROJECTS.flatMap(testFilesOf);

/** A file's `expect(…)` calls: the text between its parentheses, and the matcher after them. */
function expectCalls(text: string): { subject: string; matcher: string }[] {
  const calls: { subject: string; matcher: string }[] = [];
  for (let at = text.indexOf('expect('); at !== -1; at = text.indexOf('expect(', at + 1)) {
    let depth = 0;
    for (let end = at + 'expect'.length; end < text.length; end++) {
      if (text[end] === '(') depth++;
      else if (text[end] === ')' && --depth === 0) {
        const matcher = /^\s*\.((?:not\.)?\w+)/.exec(text.slice(end + 1))?.[1] ?? '';
        calls.push({ subject: text.slice(at + 'expect('.length, end), matcher });
        break;
      }
    }
  }
  return calls;
}

/** The subjects of a file's `expect(…)` calls. */
function expectSubjects(text: string): string[] {
  return expectCalls(text).map((call) => call.subject);
}

/** `file:line` of each line of the files that matches `pattern`. */
function linesMatching(files: readonly string[], pattern: RegExp): string[] {
  return files.flatMap((file) =>
    readFileSync(join(ROOT, file), 'utf8')
      .split('\n')
      .flatMap((line, index) => (pattern.test(line) ? [`${file}:${index + 1}`] : [])),
  );
}

describe('the tests keep the house rules', () => {
  it('finds the test files it checks', () => {
    expect(PROJECTS).toEqual(expect.arrayContaining(['unit', 'integration', 'web', 'e2e', 'infra']));
    expect(ALL.length).toBeGreaterThan(100);
  });

  it('asserts no duration: no wall clock in what a test expects', () => {
    const timed = ALL.filter((file) =>
      expectSubjects(readFileSync(join(ROOT, file), 'utf8')).some((subject) =>
        /\b(Date\.now|performance\.now|process\.hrtime)\b/.test(subject),
      ),
    );
    expect(timed).toEqual([]);
  });

  // In test/web a `getBy…` query throws already: what the user sees is asserted with `toBeVisible()`.
  it.each(['unit', 'integration', 'infra', 'e2e', 'web'])(
    'test/%s says what a value is, never just that it is truthy or defined',
    (project) => {
      expect(linesMatching(testFilesOf(project), /\.toBe(Truthy|Defined)\(\)/)).toEqual([]);
    },
  );

  it('test/web asserts what a query found is visible, never only that it is there', () => {
    const vacuous = testFilesOf('web').filter((file) =>
      expectCalls(readFileSync(join(ROOT, file), 'utf8')).some(
        (call) =>
          /\b(get|find)(All)?By\w*\(/.test(call.subject) &&
          ['not.toBeNull', 'not.toBeUndefined', 'toBeInTheDocument'].includes(call.matcher),
      ),
    );
    expect(vacuous).toEqual([]);
  });

  it('skips nothing and runs nothing alone', () => {
    expect(linesMatching(ALL, /\b(it|test|describe)\.(skip|only|todo)\(|\bx(it|describe)\(/)).toEqual([]);
  });

  it('shares helpers through test/support only: no test file imports another', () => {
    expect(linesMatching(ALL, /from '\.[^']*\.test(\.tsx?)?'/)).toEqual([]);
  });

  it.each(['unit', 'integration'])(
    'test/%s mirrors the source: each folder is a source folder',
    (project) => {
      const astray = testFilesOf(project).filter((file) => {
        const below = dirname(relative(join('test', project), file));
        return below !== '.' && !existsSync(join(ROOT, 'functions', below)) && !existsSync(join(ROOT, below));
      });
      expect(astray).toEqual([]);
    },
  );
});
