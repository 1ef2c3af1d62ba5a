// CPU times of a process, or of one of its threads, from /proc/PID/stat (Linux), for the benches
// that time a side's CPU: the fields after the command's name, which sits in parentheses and may
// itself hold blanks and parentheses.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's times. */
export const CLK_TCK = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim()) || 100;

/** utime, stime, cutime and cstime (fields 14-17) of a process, or of its thread `tid`, in clock ticks. */
export function procTimes(pid, tid) {
  const stat = readFileSync(tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { utime: Number(f[11]), stime: Number(f[12]), cutime: Number(f[13]), cstime: Number(f[14]) };
}
