// Processes under a pid and their CPU time (Linux /proc), for tests and benches (test/support: shared by test/ and bench/).
import { readdirSync, readFileSync } from 'node:fs';

/**
 * The fields of `/proc/<pid>/stat` after the command name (field 3, the state, is [0]; utime is
 * [11], stime [12], cutime [13], cstime [14]) and the name itself; undefined when it is gone.
 */
export function procStat(pid: number | string): { name: string; fields: string[] } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = stat.lastIndexOf(')');
    return { name: stat.slice(stat.indexOf('(') + 1, close), fields: stat.slice(close + 2).split(' ') };
  } catch {
    return undefined;
  }
}

/** `pid` and all its descendants (Linux /proc), `pid` first. */
export function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = procStat(entry); // undefined: gone meanwhile
    if (stat) children.set(Number(stat.fields[1]), [...(children.get(Number(stat.fields[1])) ?? []), Number(entry)]);
  }
  const out: number[] = [];
  for (const todo = [pid]; todo.length; ) {
    const p = todo.pop()!;
    out.push(p);
    todo.push(...(children.get(p) ?? []));
  }
  return out;
}

/**
 * A process's command line as one string of space-separated arguments, empty when it is gone.
 * Not split into arguments: Chromium's zygote children rewrite their title into one
 * space-separated string, so their `--type=renderer` and `--renderer-client-id=` are not separate
 * NUL-separated entries; match flags with a pattern instead.
 */
export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
  } catch {
    return '';
  }
}

/** CPU seconds (user and system) the processes have used so far; those gone count nothing. */
export function cpuSeconds(pids: readonly number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    const f = procStat(pid)?.fields; // undefined: gone meanwhile
    if (f) ticks += Number(f[11]) + Number(f[12]);
  }
  return ticks / 100;
}
