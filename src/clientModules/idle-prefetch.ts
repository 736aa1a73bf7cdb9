/**
 * Client module: moves Docusaurus's link prefetching off the page's critical path.
 *
 * Docusaurus 3.10 prefetches the chunks of every internal link that scrolls into view: each
 * `<Link>` observes itself and calls `window.docusaurus.prefetch(path)`, which matches the path
 * against the whole route table, looks its chunk names up in the table of every route, and
 * appends one `<link rel="prefetch">` per chunk. A doc page shows dozens of links (sidebar,
 * breadcrumbs, pagination, content), and those calls run back to back while the page is still
 * hydrating: a CPU profile of `/api/adb/sync/stat/` loading at 4x CPU slowdown spent about 300 ms
 * in `docusaurus_prefetch`, inside the long tasks Lighthouse counts as blocking time
 * (bench/long-tasks.ts shows which functions run in those tasks).
 *
 * This module keeps every prefetch but queues it: the queue is worked through in idle periods
 * (`requestIdleCallback`, or a 50 ms timer where that is missing), in slices of at most
 * {@link SLICE_MS} ms so that no slice becomes a long task. Hover and touch still call
 * `window.docusaurus.preload` at once, unchanged.
 *
 * The wrapper is installed in `onRouteDidUpdate`, which Docusaurus calls in a layout effect of the
 * first render, after `window.docusaurus` exists and before any intersection observer can report.
 * Docusaurus freezes that object, so the module puts a copy with the queued `prefetch` in its place.
 *
 * Input: the Docusaurus client lifecycle (browser only). Output: none; `window.docusaurus.prefetch`
 * returns a promise that settles when the queued prefetch has run (its value is that of the
 * original call, `false` when Docusaurus declined). Errors: none raised; the original prefetch
 * already swallows network errors.
 */

/** Longest stretch of queued prefetches run in one idle callback, in ms of real (unthrottled) time. */
export const SLICE_MS = 8;

type Prefetch = Window['docusaurus']['prefetch'];
type Result = ReturnType<Prefetch>;

interface Job {
  path: string;
  settle: (result: Result) => void;
}

const queue: Job[] = [];
let scheduled = false;
let installed = false;

/** Runs `callback` in the next idle period (or after 50 ms where idle callbacks do not exist). */
function whenIdle(callback: () => void): void {
  if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(callback);
  else window.setTimeout(callback, 50);
}

/**
 * Wraps a Docusaurus prefetch function so that calls are queued and run in idle slices.
 *
 * @param original The `window.docusaurus.prefetch` of Docusaurus core.
 * @returns A function with the same signature that returns at once with a promise of the result.
 */
export function queuedPrefetch(original: Prefetch): (path: string) => Promise<Result> {
  const drain = () => {
    scheduled = false;
    const start = performance.now();
    while (queue.length > 0 && performance.now() - start < SLICE_MS) {
      const job = queue.shift()!;
      job.settle(original(job.path));
    }
    if (queue.length > 0) schedule();
  };
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    whenIdle(drain);
  };
  return (path) =>
    new Promise<Result>((settle) => {
      queue.push({path, settle});
      schedule();
    });
}

/** Docusaurus client lifecycle: installs the queued prefetch once, on the first route render. */
export function onRouteDidUpdate(): void {
  if (installed || typeof window === 'undefined' || !window.docusaurus) return;
  installed = true;
  const {prefetch, preload} = window.docusaurus;
  // Docusaurus freezes its object, so the window property gets a new (frozen) one. Link reads
  // `window.docusaurus.prefetch` at call time. The declared return type is
  // `false | Promise<void[]>`; Link ignores the value.
  window.docusaurus = Object.freeze({prefetch: queuedPrefetch(prefetch) as unknown as Prefetch, preload});
}
