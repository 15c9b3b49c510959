// Processes under a pid and their CPU time (Linux /proc), for tests and benches (test/support: shared by test/ and bench/).
import { readdirSync, readFileSync } from 'node:fs';

/** `pid` and all its descendants (Linux /proc), `pid` first. */
export function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const ppid = Number(readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
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
    try {
      const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks += Number(f[11]) + Number(f[12]);
    } catch {
      // gone meanwhile
    }
  }
  return ticks / 100;
}
