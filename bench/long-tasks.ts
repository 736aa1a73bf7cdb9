/**
 * Diagnostic, not a benchmark: which code runs in the long main-thread tasks of one page load.
 * Loads a route of a build (phone-size viewport, no CPU throttling) with a Chromium trace that
 * includes V8's sampling profiler, and prints every task longer than `--min` ms with the functions
 * most often on the stack during it (inclusive sample counts, one count per sample and function).
 * Build with `npx docusaurus build --no-minify --out-dir DIR` to read the functions' names.
 * The figures in src/clientModules/idle-prefetch.ts, patches/ and the closing notes of #8 (the
 * ~28 ms ICU-collator task, the prefetch work) come from this kind of trace.
 *
 * Usage: tsx bench/long-tasks.ts [--dir build] [--min 15] [--top 25] /api/adb/sync/stat/
 * Output: one block per long task; tracing slows the page, so durations read high.
 */
import path from 'node:path';
import {parseArgs} from 'node:util';
import {launchChromium, requireBuild, ROOT} from './lib.ts';
import {startGzipServer} from './serve-gzip.ts';

interface TraceEvent {
  name: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  args: {data?: {startTime?: number; cpuProfile?: {nodes?: ProfileNode[]; samples?: number[]}; timeDeltas?: number[]}};
}
interface ProfileNode {
  id: number;
  parent?: number;
  callFrame: {functionName: string; url?: string; lineNumber: number};
}

const {values, positionals} = parseArgs({
  allowPositionals: true,
  options: {dir: {type: 'string', default: 'build'}, min: {type: 'string', default: '15'}, top: {type: 'string', default: '25'}},
});
const route = positionals[0] ?? '/';
const server = await startGzipServer(requireBuild(path.resolve(ROOT, values.dir)));
const browser = await launchChromium();
try {
  const page = await browser.newPage({viewport: {width: 412, height: 823}, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true});
  await browser.startTracing(page, {
    categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'disabled-by-default-v8.cpu_profiler', 'toplevel'],
  });
  await page.goto(server.origin + route, {waitUntil: 'load'});
  await page.waitForTimeout(2500);
  const events = (JSON.parse((await browser.stopTracing()).toString()) as {traceEvents: TraceEvent[]}).traceEvents;

  // Rebuild the sampled profile of the page's main thread (the thread that owns the Profile event).
  const nodes = new Map<number, ProfileNode>();
  const samples: {ts: number; id: number}[] = [];
  let owner: TraceEvent | undefined;
  let ts = 0;
  for (const event of events) {
    if (event.name === 'Profile') {
      owner = event;
      ts = event.args.data?.startTime ?? 0;
    } else if (event.name === 'ProfileChunk') {
      for (const node of event.args.data?.cpuProfile?.nodes ?? []) nodes.set(node.id, node);
      const deltas = event.args.data?.timeDeltas ?? [];
      (event.args.data?.cpuProfile?.samples ?? []).forEach((id, i) => samples.push({ts: (ts += deltas[i] ?? 0), id}));
    }
  }
  if (!owner) throw new Error('the trace has no CPU profile');
  const label = (node: ProfileNode) =>
    `${node.callFrame.functionName || '(anonymous)'} ${(node.callFrame.url ?? '').split('/').pop()}:${node.callFrame.lineNumber + 1}`;
  const minUs = Number(values.min) * 1000;
  const tasks = events.filter((e) => e.name === 'RunTask' && (e.dur ?? 0) > minUs && e.pid === owner!.pid && e.tid === owner!.tid);
  for (const task of tasks) {
    const counts = new Map<string, number>();
    const inTask = samples.filter((s) => s.ts >= task.ts && s.ts <= task.ts + task.dur!);
    for (const sample of inTask) {
      const seen = new Set<string>();
      for (let node = nodes.get(sample.id); node; node = node.parent === undefined ? undefined : nodes.get(node.parent)) {
        const name = label(node);
        if (!seen.has(name)) counts.set(name, (counts.get(name) ?? 0) + 1);
        seen.add(name);
      }
    }
    console.log(`task at ${((task.ts - owner.ts) / 1000).toFixed(0)} ms: ${(task.dur! / 1000).toFixed(1)} ms, ${inTask.length} samples`);
    const top = [...counts].filter(([name]) => !name.startsWith('(root)') && !name.startsWith('(program)'));
    for (const [name, count] of top.sort((a, b) => b[1] - a[1]).slice(0, Number(values.top)))
      console.log(`  ${String(count).padStart(5)}  ${name}`);
  }
} finally {
  await browser.close();
  await server.close();
}
