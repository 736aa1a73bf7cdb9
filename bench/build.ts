/**
 * Build cost: wall time and peak memory of a cold production build (`npm run build` after
 * `docusaurus clear`) and of a warm one right after it (rspack's persistent cache kept), for all
 * four docs versions. Memory is the peak of the summed resident set size (RSS) of the build's
 * whole process tree, sampled every 100 ms from /proc.
 *
 * Budget (issue #8): cold build under 75 s and 1.5 GB on 2 cores. Warm figures are reported, and
 * the part of the cold build spent writing the Markdown twins and llms.txt files (issue #16).
 * Usage: tsx bench/build.ts   (writes build/, as `npm run build` does; Linux only, for /proc).
 * It builds three times: cold, warm without the Markdown twins, warm.
 */
import {spawn, spawnSync} from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {ROOT, report, type Figure} from './lib.ts';

/** Time and memory of one command. */
export interface RunCost {
  /** Wall time in seconds. */
  seconds: number;
  /** Peak of the summed RSS of the process and all its descendants, in bytes. */
  peakRss: number;
  /** What the command printed (stdout and stderr). */
  output: string;
}

/** Sums VmRSS (bytes) over `root` and every process below it, reading /proc. */
function treeRss(root: number): number {
  const children = new Map<number, number[]>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command name may hold spaces and parentheses: the parent pid follows the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // The process ended while we read.
    }
  }
  let total = 0;
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.pop()!;
    try {
      const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
      total += Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
    } catch {
      // Gone.
    }
    queue.push(...(children.get(pid) ?? []));
  }
  return total;
}

/**
 * Runs a command and measures it.
 *
 * @param command Executable, e.g. `npx`.
 * @param args Its arguments.
 * @param env Extra environment variables.
 * @returns Wall time and peak tree RSS.
 * @throws Error with the command's output when it exits non-zero.
 */
export async function measureRun(command: string, args: string[], env: Record<string, string> = {}): Promise<RunCost> {
  const started = performance.now();
  const child = spawn(command, args, {cwd: ROOT, env: {...process.env, ...env}, stdio: ['ignore', 'pipe', 'pipe']});
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  let peakRss = 0;
  const timer = setInterval(() => {
    peakRss = Math.max(peakRss, treeRss(child.pid!));
  }, 100);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearInterval(timer);
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${code}:\n${output.slice(-4000)}`);
  return {seconds: (performance.now() - started) / 1000, peakRss, output};
}

/**
 * Clears the caches, builds twice and returns the figures.
 *
 * @returns Cold and warm wall time (s) and peak memory (GB), cold ones with their budgets.
 */
export async function buildFigures(): Promise<Figure[]> {
  const env = {GTAG_TRACKING_ID: '', TANGO_TEST_ROUTES: ''};
  const clear = spawnSync(path.join(ROOT, 'node_modules', '.bin', 'docusaurus'), ['clear'], {cwd: ROOT, stdio: 'ignore'});
  if (clear.status !== 0) throw new Error('docusaurus clear failed');
  // `npm run build`, not the docusaurus binary: the script sets the build's heap limit.
  const cold = await measureRun('npm', ['run', '--silent', 'build'], env);
  // Warm, once without the Markdown twins and llms.txt files (src/plugins/llms-txt) to time what they
  // add (the plugin's own clock would also count the search index, which other plugins build at the
  // same time: Docusaurus runs the postBuild hooks concurrently), then with them, which leaves
  // build/ complete for the benchmarks that follow.
  const warmNoTwins = await measureRun('npm', ['run', '--silent', 'build'], {...env, TANGO_LLMS_TXT: 'off'});
  const warm = await measureRun('npm', ['run', '--silent', 'build'], env);
  const GB = 1e9;
  const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;
  const twins = /\[tango-llms-txt\] .* in ([\d.]+) s/.exec(warm.output);
  if (!twins) throw new Error('The build did not print the [tango-llms-txt] line: is the plugin in docusaurus.config.ts?');
  return [
    {name: 'cold build, wall time', value: round(cold.seconds, 1), unit: 's', budget: 75, kind: 'max'},
    {name: 'cold build, peak memory', value: round(cold.peakRss / GB, 2), unit: 'GB', budget: 1.5, kind: 'max'},
    {name: 'warm build, wall time', value: round(warm.seconds, 1), unit: 's'},
    {name: 'warm build, peak memory', value: round(warm.peakRss / GB, 2), unit: 'GB'},
    {name: 'warm build without Markdown twins + llms.txt', value: round(warmNoTwins.seconds, 1), unit: 's'},
    {name: 'time the twins add (warm with - warm without)', value: round(warm.seconds - warmNoTwins.seconds, 1), unit: 's'},
    {name: 'twin plugin postBuild, overlapping the search index', value: Number(twins[1]), unit: 's'},
  ];
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const ok = report('Production build, all four versions (2 cores)', await buildFigures());
  process.exitCode = ok ? 0 : 1;
}
