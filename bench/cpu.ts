/**
 * Where the CPU went during a measurement, from Linux's /proc: CPU seconds of given processes (ours, and a
 * PostgreSQL cluster's postmaster with all its backends), of the bench process itself, and how busy the whole
 * machine was. On a shared 2-core machine a throughput figure means little without it: it tells whether a
 * second server had a core to run on.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';

/** Clock ticks per second of /proc's CPU figures. */
const TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** Fields of /proc/<pid>/stat after the command name (which may hold spaces and parentheses). */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined; // the process has exited
  }
}

/** User + system CPU seconds a process has used so far (0 once it has exited). */
export function processCpuSeconds(pid: number): number {
  const fields = statFields(pid);
  // After the name: state(0) ppid(1) … utime(11) stime(12).
  return fields === undefined ? 0 : (Number(fields[11]) + Number(fields[12])) / TICKS;
}

/** A PostgreSQL cluster's processes: its postmaster (first line of `postmaster.pid`) and the postmaster's children. */
export function clusterPids(dataDir: string): number[] {
  const postmaster = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n', 1)[0]);
  const children = readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => Number(statFields(pid)?.[1]) === postmaster);
  return [postmaster, ...children];
}

/** The whole machine's CPU time so far, in seconds: busy (everything but idle and iowait) and total. */
export function machineCpuSeconds(): { busy: number; total: number } {
  const fields = (readFileSync('/proc/stat', 'utf8').split('\n', 1)[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
  const total = fields.slice(0, 8).reduce((a, b) => a + b, 0);
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
  return { busy: (total - idle) / TICKS, total: total / TICKS };
}

export interface CpuUse {
  /** CPU seconds per labelled group of processes, and of this process (`bench`). */
  readonly seconds: Readonly<Record<string, number>>;
  /** Share of the machine's capacity in use over the window, 0–1 (all cores). */
  readonly machineBusy: number;
  readonly wallSeconds: number;
}

/**
 * Measures `fn`'s window: CPU seconds of each group of processes (pids listed when the window starts; processes
 * that start during it are not counted), of this process, and of the machine.
 */
export async function measureCpu<T>(
  groups: Readonly<Record<string, readonly number[]>>,
  fn: () => Promise<T>,
): Promise<{ result: T; cpu: CpuUse }> {
  const sum = (pids: readonly number[]): number => pids.reduce((total, pid) => total + processCpuSeconds(pid), 0);
  const before = Object.fromEntries(Object.entries(groups).map(([label, pids]) => [label, sum(pids)]));
  const self = process.cpuUsage();
  const machine = machineCpuSeconds();
  const started = process.hrtime.bigint();
  const result = await fn();
  const wallSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  const machineAfter = machineCpuSeconds();
  const selfUsed = process.cpuUsage(self);
  const seconds: Record<string, number> = {};
  for (const [label, pids] of Object.entries(groups)) seconds[label] = sum(pids) - (before[label] ?? 0);
  seconds['bench'] = (selfUsed.user + selfUsed.system) / 1e6;
  return { result, cpu: { seconds, machineBusy: (machineAfter.busy - machine.busy) / (machineAfter.total - machine.total), wallSeconds } };
}

/** Processes pinned to cores for a measurement, and how to let them run anywhere again. */
export interface Pinning {
  /** What was done, for the row's note. */
  readonly said: string;
  release(): void;
}

/**
 * Pins a PostgreSQL cluster (its postmaster, hence every backend it forks from now on, and its current processes)
 * to the machine's last core and this process (and the servers it spawns from now on) to the first, with
 * `taskset`. Left to the scheduler on 2 cores, which core each backend ran on decided its round trip: the same
 * statement took 200 µs on one connection and 160 µs on another in the same run, more than the work a row
 * compares. Pinned, connections agree within 1 %. Does nothing where there is one core or no `taskset`.
 */
export function pinApart(clusterDataDir: string): Pinning {
  const cores = availableParallelism();
  const all = `0-${cores - 1}`;
  const pin = (list: string, pids: readonly number[]) => {
    for (const pid of pids) execFileSync('taskset', ['-a', '-p', '-c', list, String(pid)], { stdio: 'ignore' });
  };
  if (cores < 2) return { said: 'not pinned (one core)', release: () => {} };
  try {
    pin(String(cores - 1), clusterPids(clusterDataDir));
    pin('0', [process.pid]);
  } catch (error) {
    return { said: `not pinned (${error instanceof Error ? error.message.split('\n', 1)[0] : String(error)})`, release: () => {} };
  }
  return {
    said: `PostgreSQL pinned to core ${cores - 1}, the bench and its servers to core 0 (taskset)`,
    release() {
      try {
        pin(all, [process.pid]);
        pin(all, clusterPids(clusterDataDir));
      } catch {
        // A cluster stopped meanwhile has nothing left to release.
      }
    },
  };
}
