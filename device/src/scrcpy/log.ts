/**
 * The simulated server's console output: scrcpy's `Ln` log lines and Java exception traces,
 * written to the `app_process` command's standard streams in order without making the streaming
 * wait for the host to read them.
 *
 * Facts: `Ln.java` at each Genymobile/scrcpy tag (prefix `[server] LEVEL: `; up to 1.25 every
 * level goes to stdout, from 2.0 WARN and ERROR go to stderr; the level threshold is INFO until
 * the options are parsed), `Throwable.printStackTrace` (stderr, `\tat` frames), and a trace from a
 * real device: `RuntimeInit.main(RuntimeInit.java:438)` is the framework frame on current Android.
 */
import type {CommandContext} from '../types.ts';
import type {ServerVersion} from './versions.ts';

/** scrcpy's log levels, lowest first (`Ln.Level`). */
export const LOG_LEVELS = ['VERBOSE', 'DEBUG', 'INFO', 'WARN', 'ERROR'] as const;

/** One of `LOG_LEVELS`. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The two frames below the server's `main` on a current Android (seen in real traces). */
export const RUNTIME_INIT_FRAMES: readonly string[] = [
  'com.android.internal.os.RuntimeInit.nativeFinishInit(Native Method)',
  'com.android.internal.os.RuntimeInit.main(RuntimeInit.java:438)',
];

/**
 * A Java exception as the server would throw it: the class name, the message, and the frames
 * (`com.genymobile.scrcpy.Options.parse(Options.java:293)`, without the `at `).
 */
export class JavaException extends Error {
  /** @param javaClass fully qualified class name, e.g. `java.lang.IllegalArgumentException` */
  constructor(
    readonly javaClass: string,
    message: string,
    readonly frames: readonly string[] = [],
  ) {
    super(message);
    this.name = 'JavaException';
  }

  /** `Throwable.printStackTrace` text: `class: message`, then one `\tat frame` line per frame, each ending in `\n`. */
  stackTrace(): string {
    return `${this.javaClass}: ${this.message}\n${this.frames.map((frame) => `\tat ${frame}\n`).join('')}`;
  }
}

/**
 * The server's console. Lines are queued and written in order; `write` never waits for the
 * host, `flush` waits until everything queued was written (or the stream closed).
 */
export class ServerConsole {
  #threshold: LogLevel = 'INFO';
  #chain: Promise<void> = Promise.resolve();
  readonly #context: CommandContext;
  readonly #version: ServerVersion;
  /** Every line written, stdout and stderr together, in order (for tests). */
  readonly lines: string[] = [];

  constructor(context: CommandContext, version: ServerVersion) {
    this.#context = context;
    this.#version = version;
  }

  /** Sets the level below which `log` prints nothing (`Ln.initLogLevel`). */
  setThreshold(level: LogLevel): void {
    this.#threshold = level;
  }

  /** Whether `level` is printed (`Ln.isEnabled`). */
  enabled(level: LogLevel): boolean {
    return LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(this.#threshold);
  }

  /** Logs `[server] LEVEL: message` (a message may hold several lines) when `level` is enabled. */
  log(level: LogLevel, message: string): void {
    if (!this.enabled(level)) return;
    const toStderr = this.#version.atLeast('2.0') && (level === 'WARN' || level === 'ERROR');
    this.write(`[server] ${level}: ${message}\n`, toStderr);
  }

  /** Logs an error with the exception's trace after it, as `Ln.e(message, throwable)` does (the trace always on stderr). */
  error(message: string, exception: JavaException): void {
    if (!this.enabled('ERROR')) return;
    this.log('ERROR', message);
    this.write(exception.stackTrace(), true);
  }

  /** Queues raw text on stdout or stderr. */
  write(text: string, toStderr = false): void {
    this.lines.push(...text.replace(/\n$/, '').split('\n'));
    const output = toStderr ? this.#context.stderr : this.#context.stdout;
    this.#chain = this.#chain.then(() => output(text)).catch(() => undefined);
  }

  /** Resolves once every queued line was written or failed. */
  flush(): Promise<void> {
    return this.#chain;
  }
}
