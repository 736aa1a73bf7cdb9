/**
 * The sample run (run.ts runSamples) in a Node.js process of its own.
 *
 * Why: check.ts type-checks first, and its process then holds TypeScript's programs of every
 * version (~500 MB resident, which no GC gives back). The run starts about three processes per
 * sample (the device tree's copy, the device's sandbox, the sample), and each start forks the
 * process that asks for it: Linux copies the parent's page tables, so a start cost the run's
 * thread ~13 ms there (a CPU profile of 2.0.0's run: 12 s of its 33 busy seconds) against ~2 ms
 * in a fresh process.
 *
 * Usage (runSamplesInProcess starts it): node --import tsx scripts/samples/run-process.ts IN OUT
 *   IN   a JSON file: {jobs: RunJob[], options: RunOptions}
 *   OUT  the JSON file it writes: {outcomes: (RunOutcome without `job`)[], environment: string[]},
 *        the outcomes in the jobs' order.
 * It prints nothing of its own; an error that ends it goes to stderr, with exit code 1.
 */
import {spawn} from 'node:child_process';
import {once} from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {fileURLToPath, pathToFileURL} from 'node:url';

import type {RunJob, RunOptions, RunOutcome} from './run.ts';

/** What the child writes to OUT. */
interface ChildResult {
  outcomes: Array<Omit<RunOutcome, 'job'>>;
  environment: string[];
}

/**
 * Runs the samples as runSamples does, in a fresh Node.js process (see the module comment).
 *
 * @param jobs The samples, as for runSamples (plain data: they are passed as JSON).
 * @param options As for runSamples.
 * @returns As runSamples: one outcome per job, in order, each with its job; and `environment`.
 * @throws Error when the process can't start, or ends without writing its result (its stderr, which
 *   it inherits, says why).
 */
export async function runSamplesInProcess(
  jobs: readonly RunJob[],
  options: RunOptions,
): Promise<{outcomes: RunOutcome[]; environment: string[]}> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'samples-run-process-'));
  try {
    const input = path.join(dir, 'in.json');
    const output = path.join(dir, 'out.json');
    fs.writeFileSync(input, JSON.stringify({jobs, options}));
    const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), fileURLToPath(import.meta.url), input, output], {
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
    if (!fs.existsSync(output)) throw new Error(`the sample run's process ended (${signal ?? `exit code ${code}`}) without its result`);
    const result = JSON.parse(fs.readFileSync(output, 'utf8')) as ChildResult;
    return {outcomes: result.outcomes.map((outcome, index) => ({...outcome, job: jobs[index]!})), environment: result.environment};
  } finally {
    fs.rmSync(dir, {recursive: true, force: true});
  }
}

/** The child: reads IN, runs, writes OUT. */
async function main([input, output]: string[]): Promise<void> {
  const {runSamples} = await import('./run.ts');
  const {jobs, options} = JSON.parse(fs.readFileSync(input!, 'utf8')) as {jobs: RunJob[]; options: RunOptions};
  const {outcomes, environment} = await runSamples(jobs, options);
  const result: ChildResult = {outcomes: outcomes.map(({job: _job, ...rest}) => rest), environment};
  fs.writeFileSync(output!, JSON.stringify(result));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then(
    // Whatever the devices or Chromium left open must not keep the run waiting.
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
