/**
 * The harness page's script, in Chromium: browser.ts bundles `installHarness()` into the page that
 * every browser sample runs in. The page shows the sample's markup (browser.ts pageMarkup) and one
 * button that names the sample's module; the runner clicks it (a real click, so that the sample may
 * call `navigator.usb.requestDevice()`), the button goes away and the sample's module is imported
 * from the click handler. The runner then reads `window[HARNESS_GLOBAL]`:
 * `settled` (the sample's top-level code is done), `idle()` (the event listeners it ran are done),
 * `cleanup()` (the preludes' teardowns).
 *
 * An error the sample does not catch reaches the runner as an uncaught exception (Playwright's
 * `pageerror`): a top-level throw, and a rejection of a promise an event listener returned, are
 * thrown again from a timer, as the browser reports any other uncaught error.
 *
 * Importing this module has no effect (prelude-browser.ts imports its names into samples).
 */

/** The global through which the runner and the preludes reach the harness. */
export const HARNESS_GLOBAL = '__tangoSample';

/** The id of the button the runner clicks to start the sample. */
export const START_BUTTON_ID = 'tango-sample-start';

/** The start button's attribute that names the sample's module (a URL on the page's origin). */
export const SAMPLE_ATTRIBUTE = 'data-sample';

/** What the harness gives the runner and the preludes, as `window[HARNESS_GLOBAL]`. */
export interface SampleHarness {
  /**
   * The sample module's import, from the start button's click: `'ok'` once its top-level code is
   * done, `'error'` when it threw (the error is rethrown as uncaught). `undefined` before the click.
   */
  settled: Promise<'ok' | 'error'> | undefined;
  /** Resolves once every promise that an event listener returned has settled, including those returned meanwhile. */
  idle(): Promise<void>;
  /** Teardowns the preludes hand over (prelude-browser.ts): they run in cleanup(). */
  cleanups: Array<() => Promise<void>>;
  /** Runs and empties `cleanups`, in order; a teardown that throws does not stop the others. */
  cleanup(): Promise<void>;
}

/** Throws `error` from a timer: the browser reports it as an uncaught error. */
function rethrow(error: unknown): void {
  setTimeout(() => {
    throw error;
  });
}

/**
 * Installs the harness in the page: defines `window[HARNESS_GLOBAL]`, makes every function
 * listener added with `addEventListener` from now on report the promise it returns (an `async`
 * listener's work), and starts the sample when the start button is clicked.
 *
 * @param scope The page's window.
 * @throws Error when the page has no start button.
 */
export function installHarness(scope: Window & typeof globalThis): void {
  const pending = new Set<Promise<void>>();
  const track = (value: PromiseLike<unknown>) => {
    const settled: Promise<void> = Promise.resolve(value).then(() => undefined, rethrow);
    pending.add(settled);
    void settled.finally(() => pending.delete(settled));
  };
  const harness: SampleHarness = {
    settled: undefined,
    async idle() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
    cleanups: [],
    async cleanup() {
      for (const close of harness.cleanups.splice(0)) await close().catch(() => undefined);
    },
  };
  (scope as unknown as Record<string, unknown>)[HARNESS_GLOBAL] = harness;

  const button = scope.document.getElementById(START_BUTTON_ID);
  if (!button) throw new Error(`the harness page has no #${START_BUTTON_ID}`);
  button.addEventListener('click', () => {
    button.remove();
    const url = button.getAttribute(SAMPLE_ATTRIBUTE) ?? '';
    harness.settled = import(/* @vite-ignore */ url).then(
      () => 'ok' as const,
      (error: unknown) => {
        rethrow(error);
        return 'error' as const;
      },
    );
  });

  // One wrapper per listener function, so that removeEventListener finds it.
  const wrappers = new WeakMap<object, EventListener>();
  const prototype = scope.EventTarget.prototype;
  const add = prototype.addEventListener;
  const remove = prototype.removeEventListener;
  prototype.addEventListener = function (type, listener, options) {
    if (typeof listener !== 'function') return add.call(this, type, listener, options);
    let wrapper = wrappers.get(listener);
    if (!wrapper) {
      wrapper = function (this: unknown, event: Event) {
        const result: unknown = listener.call(this as EventTarget, event);
        if (typeof (result as PromiseLike<unknown> | undefined)?.then === 'function') track(result as PromiseLike<unknown>);
        return result;
      };
      wrappers.set(listener, wrapper);
    }
    return add.call(this, type, wrapper, options);
  };
  prototype.removeEventListener = function (type, listener, options) {
    const wrapper = typeof listener === 'function' ? wrappers.get(listener) : undefined;
    return remove.call(this, type, wrapper ?? listener, options);
  };
}
