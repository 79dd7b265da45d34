import { describe, expect, it } from 'vitest';

import { mergeResults, type PartResult, readResults } from '../../../bench/results-file';

const part = (name: string, at: string, load: number, targets: PartResult['targets']): PartResult => ({
  part: name,
  measured: { at, loadAverage: [load, load, load], cpus: 2 },
  targets,
  markdown: `## Part ${name}\n\nFigures of ${name} measured at ${at}.`,
});

const throughput = (measured: string, met: boolean) => ({
  figure: 'worker throughput, 200 ms receiver',
  target: '≥ 90 % of 5 / delay',
  measured,
  met,
});

describe('bench results file', () => {
  const first = mergeResults(
    '',
    [
      part('worker', '2026-11-20T10:00:00.000Z', 3, [
        throughput('57 % (14.2/s)', false),
        { figure: 'product mix', target: 'reported', measured: 'p99 45 s', met: null },
      ]),
      part('api', '2026-11-20T10:30:00.000Z', 4, [
        { figure: 'list p99', target: '≤ 50 ms', measured: '40 ms', met: true },
      ]),
    ],
    '2026-11-20T10:00:00.000Z',
  );

  it('keeps the parts not run again, with when and at what load they were measured', () => {
    const next = mergeResults(
      first,
      [part('throughput', '2026-11-25T19:00:00.000Z', 9.5, [throughput('92 % (23.0/s)', true)])],
      '2026-11-25T19:00:00.000Z',
    );

    expect(readResults(next).map((kept) => kept.part)).toEqual(['worker', 'api', 'throughput']);
    expect(next).toContain('Figures of worker measured at 2026-11-20T10:00:00.000Z.');
    expect(next).toContain('_Measured 2026-11-20 10:30 UTC, load average 4.0, 4.0, 4.0 on 2 CPU(s)._');
    expect(next).toContain('_Measured 2026-11-25 19:00 UTC, load average 9.5, 9.5, 9.5 on 2 CPU(s)._');
  });

  it('lists every target once in the Targets table, at its latest figure and date', () => {
    const next = mergeResults(
      first,
      [part('throughput', '2026-11-25T19:00:00.000Z', 9.5, [throughput('92 % (23.0/s)', true)])],
      '2026-11-25T19:00:00.000Z',
    );
    const table = next.slice(next.indexOf('## Targets'), next.indexOf('<!-- part'));

    expect(table).toContain('92 % (23.0/s)');
    expect(table).not.toContain('57 % (14.2/s)');
    expect(table).toContain('2026-11-25 19:00 (9.5)');
    expect(table).toMatch(/product mix \|.*reported \|.*p99 45 s \|\s+— \|\s+2026-11-20 10:00 \(3\.0\)/);
    expect(table).toMatch(/list p99 \|.*yes \|\s+2026-11-20 10:30 \(4\.0\)/);
  });

  it('replaces a part run again in its place, its old figures gone', () => {
    const next = mergeResults(
      first,
      [part('worker', '2026-11-25T20:00:00.000Z', 1.2, [throughput('91 % (22.8/s)', true)])],
      '2026-11-25T20:00:00.000Z',
    );

    expect(readResults(next).map((kept) => kept.part)).toEqual(['worker', 'api']);
    expect(next).not.toContain('Figures of worker measured at 2026-11-20');
    expect(next).not.toContain('product mix');
    // Written and read back again, every part stays as it was.
    expect(readResults(mergeResults(next, [], '2026-11-25T21:00:00.000Z'))).toEqual(readResults(next));
  });
});
