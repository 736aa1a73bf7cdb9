/**
 * `npm run bench`: every benchmark of issue #8, in order, printing each figure against its budget.
 *
 * 1. Build (bench/build.ts): cold and warm production builds of all four versions; leaves the
 *    production site in build/ for the next steps.
 * 2. Page weight (bench/weight.ts), 3. Lighthouse (bench/lighthouse.ts), 4. Search
 *    (bench/search.ts), all against build/ served with gzip.
 * 5. Simulated device (bench/device.ts): handshake, shell round trip and sync throughput.
 * 6. Sample runner (bench/samples.ts): the 2.0.0 type-check and run as npm test does it.
 * 7. Sample first (bench/sample-first.ts): words of prose before the first sample of each page of
 *    the current version (issue #25), from the pages themselves.
 * 8. Prose (bench/prose.ts): sentence and paragraph lengths, source citations and words per page
 *    of every version (issue 34), from the pages themselves.
 *
 * Not part of `npm test`: the figures depend on the machine. Run it on an otherwise idle machine
 * (other processes inflate Lighthouse's blocking time and the build time).
 * Usage: npm run bench [-- --skip-build]   (--skip-build reuses an existing build/)
 * Exit code: 0 when every budget is met, 1 when one is missed or a step fails.
 */
import {buildFigures} from './build.ts';
import {deviceFigures} from './device.ts';
import {report} from './lib.ts';
import {samplesFigures} from './samples.ts';
import {lighthouseFigures} from './lighthouse.ts';
import {BASELINE, proseFigures} from './prose.ts';
import {sampleFirstFigures} from './sample-first.ts';
import {searchFigures} from './search.ts';
import {weightFigures} from './weight.ts';

const skipBuild = process.argv.includes('--skip-build');
const steps: [title: string, run: () => Promise<import('./lib.ts').Figure[]>][] = [
  ...(skipBuild ? [] : [['Production build, all four versions', buildFigures] as [string, typeof buildFigures]]),
  ['Page weight (gzip, as transferred)', weightFigures],
  ['Lighthouse, mobile (served with gzip)', lighthouseFigures],
  ['Search', searchFigures],
  ['Simulated device (through @yume-chan/adb 2.0.1)', deviceFigures],
  ['Sample runner (2.0.0, simulated device)', samplesFigures],
  ['Sample first: words before the first sample, current version', sampleFirstFigures],
  ...Object.keys(BASELINE).map(
    (version) => [`Prose (${version})`, async () => proseFigures(version).figures] as [string, () => Promise<import('./lib.ts').Figure[]>],
  ),
];

let ok = true;
for (const [title, run] of steps) {
  try {
    ok = report(title, await run()) && ok;
  } catch (error) {
    console.log(`\n${title}\n  FAILED: ${(error as Error).message}`);
    ok = false;
  }
}
console.log(`\nbench: ${ok ? 'every budget met' : 'budget missed (see OVER / LOW / FAILED above)'}`);
process.exitCode = ok ? 0 : 1;
