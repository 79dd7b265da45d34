import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU time of the processes a benchmark drives, read from Linux's /proc: what the DynamoDB Local
 * emulator (Java) and the local runtime (Node) spend on each request tells whether a latency target
 * can be met on this machine at all, whatever the code does with its waits. Null where there is no
 * /proc (the figures are then left out, not guessed).
 */

const TICKS_PER_SECOND = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;

/** User and system CPU seconds a process has used so far, its threads included. */
export function processCpuSeconds(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    // Fields after the command name (which may hold spaces, hence the last ')'): utime and stime
    // are the 12th and 13th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** The ids of a process's direct children whose command is `command` (DynamoDB Local's `java`). */
export function childrenNamed(pid: number | undefined, command: string): number[] {
  if (pid === undefined) return [];
  try {
    const children = readdirSync(`/proc/${pid}/task`).flatMap((thread) =>
      readFileSync(`/proc/${pid}/task/${thread}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
    );
    return children.filter((child) => {
      try {
        return readFileSync(`/proc/${child}/comm`, 'utf8').trim() === command;
      } catch {
        return false;
      }
    });
  } catch {
    return [];
  }
}

/** CPU seconds each named process spends while `work` runs; null for one /proc could not tell. */
export async function cpuSecondsDuring<T, Name extends string>(
  pids: Readonly<Record<Name, number | undefined>>,
  work: () => Promise<T>,
): Promise<{ result: T; cpuSeconds: Record<Name, number | null> }> {
  const names = Object.keys(pids) as Name[];
  const before = names.map((name) => processCpuSeconds(pids[name]));
  const result = await work();
  const cpuSeconds = Object.fromEntries(
    names.map((name, index) => {
      const start = before[index];
      const end = processCpuSeconds(pids[name]);
      return [name, start === null || start === undefined || end === null ? null : end - start];
    }),
  ) as Record<Name, number | null>;
  return { result, cpuSeconds };
}
