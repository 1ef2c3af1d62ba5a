// The live child processes of a process, read from /proc (Linux): for tests of the processes editls starts.
import { readdirSync, readFileSync } from 'node:fs';

/** The live processes whose parent is `pid`. */
export function childrenOf(pid: number): number[] {
  const kids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) === pid && fields[0] !== 'Z') kids.push(Number(name));
    } catch {
      // gone
    }
  }
  return kids;
}

/** The live processes below `pid`: its children, theirs, and so on. */
export function descendantsOf(pid: number): number[] {
  const all: number[] = [];
  for (let level = childrenOf(pid); level.length > 0; level = level.flatMap(childrenOf)) all.push(...level);
  return all;
}

/** The command line of a process, its arguments split ([] once it is gone). */
export function commandLine(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return [];
  }
}

/** Whether a process is gone (or a zombie, dead but not yet reaped). */
export function isGone(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z');
  } catch {
    return true;
  }
}

/**
 * The minor page faults of the children a process has waited for (`cminflt` in /proc/PID/stat): 0
 * until a child of it has run and exited, so it tells that a process ran something.
 */
export function reapedChildrenFaults(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[8]);
}
