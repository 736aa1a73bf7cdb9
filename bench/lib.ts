/**
 * Shared pieces of the benchmarks: the browser they drive, and how a figure is compared with its
 * budget and printed.
 */
import fs from 'node:fs';
import path from 'node:path';
import {fileURLToPath} from 'node:url';
import {chromium, type Browser} from '@playwright/test';

/** The repository root (bench/ lives directly below it). */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** One measured figure and its budget. */
export interface Figure {
  /** What was measured, e.g. "JS (gzip) on a doc page without a diagram". */
  name: string;
  value: number;
  /** Unit for printing, e.g. "KiB", "s", "%". */
  unit: string;
  /** The budget; `undefined` for a figure that is only reported. */
  budget?: number;
  /** `max`: the value must be at most the budget (weights, times); `min`: at least (scores). */
  kind?: 'max' | 'min';
}

/** Whether a figure meets its budget (figures without a budget always do). */
export function withinBudget(figure: Figure): boolean {
  if (figure.budget === undefined) return true;
  return figure.kind === 'min' ? figure.value >= figure.budget : figure.value <= figure.budget;
}

/**
 * Prints one line per figure: value, budget, ratio value/budget and OK/OVER (or LOW for `min`).
 *
 * @param title Heading of the group.
 * @param figures The figures.
 * @returns `true` when every figure meets its budget.
 */
export function report(title: string, figures: readonly Figure[]): boolean {
  console.log(`\n${title}`);
  const width = Math.max(...figures.map((figure) => figure.name.length));
  for (const figure of figures) {
    const value = `${format(figure.value)} ${figure.unit}`;
    if (figure.budget === undefined) {
      console.log(`  ${figure.name.padEnd(width)}  ${value.padStart(12)}`);
      continue;
    }
    const ratio = figure.budget === 0 ? (figure.value === 0 ? 1 : Infinity) : figure.value / figure.budget;
    const verdict = withinBudget(figure) ? 'ok' : figure.kind === 'min' ? 'LOW' : 'OVER';
    const sign = figure.kind === 'min' ? '>=' : '<=';
    console.log(
      `  ${figure.name.padEnd(width)}  ${value.padStart(12)}   budget ${sign} ${format(figure.budget)} ${figure.unit}   ratio ${ratio.toFixed(2)}   ${verdict}`,
    );
  }
  return figures.every(withinBudget);
}

function format(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(value < 10 ? 2 : 1);
}

/** Debian's Chromium, or CHROMIUM_PATH; the benchmarks never download a browser. */
export function chromiumPath(): string {
  const candidate = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!fs.existsSync(candidate)) {
    throw new Error(`no Chromium at ${candidate}: install Debian's chromium (apt-get install -y chromium) or set CHROMIUM_PATH`);
  }
  return candidate;
}

/** Starts headless Chromium with the flags this machine's closed network needs. */
export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    args: ['--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
  });
}

/** Fails with a clear message when the production build is missing. */
export function requireBuild(dir = path.join(ROOT, 'build')): string {
  if (!fs.existsSync(path.join(dir, 'index.html'))) {
    throw new Error(`${dir} has no production build: run \`npm run build\` first (or \`npm run bench\`, which builds)`);
  }
  return dir;
}
