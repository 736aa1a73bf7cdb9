/**
 * The sample runner's time: `npm run check:samples -- --run --version 2.0.0` as `npm test` runs it
 * (type-check of the version's samples, then every runnable sample against the simulated device,
 * in Node.js and in Chromium), in one child process. Figures, in seconds of wall-clock time:
 *
 * - the whole command (type-check and run);
 * - the run alone, as the runner prints it (`run: N samples of 2.0.0 (…), 3 at a time (…), in X s`);
 * - the run per sample (the run divided by the number of samples run), and that count, reported.
 *
 * Usage: `npx tsx bench/samples.ts` (also a step of `npm run bench`). Needs what the runner needs:
 * Google's adb and Chromium (npm test installs both). Run it on an otherwise idle machine.
 * Errors: throws when the command fails to start or its output has no `run:` line (a type-check
 * failure stops it before the run); a failing sample is a figure, not an error.
 */
import {spawn} from 'node:child_process';
import {ROOT, type Figure} from './lib.ts';

/** Budget for the whole command, in seconds: the share of CI's 10 minutes the samples may take. */
const WHOLE_BUDGET_S = 150;
/** Budget for the average sample, in seconds. */
const PER_SAMPLE_BUDGET_S = 0.8;

/** Runs the command and resolves with its output (stdout and stderr) and wall-clock seconds. */
function runChecker(): Promise<{output: string; seconds: number}> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/samples/check.ts', '--run', '--version', '2.0.0'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', () => resolve({output, seconds: (performance.now() - start) / 1000}));
  });
}

/** Times the runner; see the file's docstring for the figures and their units. */
export async function samplesFigures(): Promise<Figure[]> {
  const {output, seconds} = await runChecker();
  const run = /^run: (\d+) samples? of 2\.0\.0.* in ([\d.]+) s$/m.exec(output);
  if (!run) throw new Error(`the runner printed no "run:" line:\n${output.split('\n').slice(-15).join('\n')}`);
  const count = Number(run[1]);
  const runSeconds = Number(run[2]);
  const summary = /^samples run: .*$/m.exec(output)?.[0] ?? '';
  console.log(`  ${summary}`);
  return [
    {name: 'check:samples --run --version 2.0.0, whole command', value: seconds, unit: 's', budget: WHOLE_BUDGET_S},
    {name: 'the run alone', value: runSeconds, unit: 's'},
    {name: `per sample run (${count} samples)`, value: runSeconds / count, unit: 's', budget: PER_SAMPLE_BUDGET_S},
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const {report} = await import('./lib.ts');
  process.exitCode = report('Sample runner (2.0.0, simulated device)', await samplesFigures()) ? 0 : 1;
}
