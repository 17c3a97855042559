// Timing and reporting pieces of the benches: a timed loop, best and median of rounds, a child
// process that reports one JSON line, and the machine the numbers came from.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, freemem, loadavg, totalmem } from 'node:os';

/** Items a second of `run` (which handles `perRun` items), run for at least `seconds` after a short warm-up. */
export function timedRate(
  run: () => void,
  perRun: number,
  seconds: number,
): { rate: number; seconds: number } {
  // Warm-up: a few runs so the JIT has compiled the path, but not seconds of it for a slow `run`.
  const warm = performance.now();
  for (let i = 0; i < 3 && performance.now() - warm < 300; i++) run();
  let runs = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < seconds * 1000) {
    run();
    runs++;
    elapsed = performance.now() - start;
  }
  return { rate: (runs * perRun) / (elapsed / 1000), seconds: elapsed / 1000 };
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Best and median of the rounds; `higherIsBetter` false for times and memory. */
export function summarize(values: number[], higherIsBetter = true): { best: number; median: number } {
  return {
    best: higherIsBetter ? Math.max(...values) : Math.min(...values),
    median: median(values),
  };
}

/**
 * Run `node --import tsx SCRIPT ...args` in `cwd` and return the JSON of its last stdout line.
 * Its stderr passes through; a non-zero exit is an error.
 */
export function runChild<T>(script: string, args: string[], cwd: string): Promise<T> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
      cwd,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => (out += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code !== 0) {
        reject(new Error(`child ${args.join(' ')} exited with ${code ?? signal}`));
        return;
      }
      const last = out.trim().split('\n').at(-1) ?? '';
      try {
        resolvePromise(JSON.parse(last) as T);
      } catch {
        reject(new Error(`child ${args.join(' ')} printed no JSON result: ${last.slice(0, 200)}`));
      }
    });
  });
}

/** This process's peak resident set so far, in kilobytes (what the kernel reports). */
export function peakRssKb(): number {
  return process.resourceUsage().maxRSS;
}

/** Kilobytes as decimal megabytes. */
export function megabytes(kb: number): number {
  return (kb * 1024) / 1e6;
}

/** The 1, 5 and 15 minute load averages, as `cat /proc/loadavg` shows them. */
export function loadAverage(): string {
  return loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
}

/** One line naming the machine: CPU model, cores, memory, Node version. */
export function machineLine(): string {
  const cores = cpus();
  const gib = (bytes: number) => (bytes / 1024 ** 3).toFixed(1);
  return (
    `${cores[0]?.model ?? 'unknown CPU'}, ${cores.length} cores, ${gib(totalmem())} GiB RAM ` +
    `(${gib(freemem())} GiB free), Node ${process.version}, ${process.platform}/${process.arch}`
  );
}

/** CPU seconds this process has used (user + system). */
export function ownCpuSeconds(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
}

/**
 * CPU seconds the whole machine has been busy since boot (every core, every process), from
 * /proc/stat; undefined where there is none. With the bench's own CPU time it tells how much of the
 * run other work on a shared machine took.
 */
export function machineBusySeconds(): number | undefined {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const [user, nice, system, , , irq, softirq, steal] = fields;
    // USER_HZ is 100 on every Linux the project runs on.
    return (user + nice + system + irq + softirq + steal) / 100;
  } catch {
    return undefined;
  }
}

/**
 * Start watching how busy other processes keep the machine; `stop` takes the CPU seconds of the
 * children started meanwhile and returns the others' average use in cores (0.5 = half of one core)
 * and the wall seconds, or undefined cores where /proc/stat is missing. Approximate: the esbuild
 * helper of a tsx child counts as "other".
 */
export function watchOtherLoad(): {
  stop(childCpuSeconds: number): { cores: number | undefined; seconds: number };
} {
  const busy = machineBusySeconds();
  const own = ownCpuSeconds();
  const start = performance.now();
  return {
    stop(childCpuSeconds) {
      const seconds = (performance.now() - start) / 1000;
      const now = machineBusySeconds();
      if (busy === undefined || now === undefined) return { cores: undefined, seconds };
      const other = now - busy - (ownCpuSeconds() - own) - childCpuSeconds;
      return { cores: Math.max(0, other) / seconds, seconds };
    },
  };
}
