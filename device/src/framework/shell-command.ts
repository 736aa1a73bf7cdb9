/**
 * The pieces every framework program here shares: writing to its standard streams, and the Java
 * services' shell-command machinery that `cmd SERVICE …` reaches (`Binder.shellCommand` →
 * `ShellCommand.exec` → `BasicShellCommandHandler.exec` → the service's `onCommand`).
 *
 * Facts (android-14.0.0_r50):
 * - `frameworks/libs/modules-utils/java/com/android/modules/utils/BasicShellCommandHandler.java`
 *   (the same code as `frameworks/base/core/java/android/os/BasicShellCommandHandler.java` of
 *   Android 11): `exec` returns -1 unless `onCommand` returns; a `Throwable` from `onCommand` is
 *   printed on the error stream as an empty line, `Exception occurred while executing 'CMD':` and
 *   its stack trace; `getNextOption` splits `-Sxyz` into `-S` and `xyz` and throws
 *   `No argument expected after "…"` when that data is left unread; `getNextArgRequired` throws
 *   `Argument expected after "…"`; `handleDefaultCommands` prints the help for no command, `help`
 *   and `-h`, else `Unknown command: CMD`, and returns -1 (exit status 255).
 * - `frameworks/base/core/java/android/os/UserHandle.java` `parseUserArg`: `all` → -1,
 *   `current`/`cur` → -2, a number, else `Bad user number: ARG`.
 * - `frameworks/base/core/java/android/os/Binder.java` `handleShellCommand`: a service without a
 *   shell command prints `No shell command implementation.` on the error stream and returns 0.
 * - The stack frames below `onCommand` are the binder path of a `cmd` call, with the line numbers
 *   of `BasicShellCommandHandler.exec` (97) and `ShellCommand.exec` (38) that Android 13 and 14
 *   devices print (captures of `Exception occurred while executing` on such devices).
 *   The frames: `frameworks/base/core/java/android/os/ShellCommand.java`.
 */
import type {CommandContext, CommandResult} from '../types.ts';
import {JavaException, parseJavaInt} from './java.ts';

/** Writes `text` to standard output. */
export function print(context: CommandContext, text: string): Promise<void> {
  return context.stdout(text);
}

/** Writes `text` and a newline to standard output (`PrintWriter.println`). */
export function println(context: CommandContext, text: string): Promise<void> {
  return context.stdout(`${text}\n`);
}

/** Writes `text` to standard error. */
export function eprint(context: CommandContext, text: string): Promise<void> {
  return context.stderr(text);
}

/** Writes `text` and a newline to standard error. */
export function eprintln(context: CommandContext, text: string): Promise<void> {
  return context.stderr(`${text}\n`);
}

/** Reads standard input to its end, or its first `limit` bytes. */
export async function readAllStdin(context: CommandContext, limit = Infinity): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < limit) {
    const chunk = await context.readStdin();
    if (!chunk) break;
    chunks.push(chunk);
    size += chunk.length;
  }
  const data = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    data.set(chunk, offset);
    offset += chunk.length;
  }
  return limit === Infinity ? data : data.subarray(0, limit);
}

/** The frames of `BasicShellCommandHandler.exec` and `ShellCommand.exec`, below every `onCommand`. */
export const SHELL_COMMAND_FRAMES: readonly string[] = [
  'com.android.modules.utils.BasicShellCommandHandler.exec(BasicShellCommandHandler.java:97)',
  'android.os.ShellCommand.exec(ShellCommand.java:38)',
];

/**
 * `BasicShellCommandHandler`'s argument reader over a shell command's arguments (the first one,
 * the command, already taken): options, plain arguments, required ones. Errors are the
 * `IllegalArgumentException`s Android throws, with `frames` as where they are thrown from.
 */
export class ShellArgs {
  readonly #args: readonly string[];
  #pos = 0;
  #curArgData: string | undefined;
  readonly frames: readonly string[];

  /**
   * @param args the arguments after the command
   * @param frames the frames an exception thrown while reading them shows (the command's
   *   `onCommand` and below)
   * @param previous the argument before `args` (the command), which `Argument expected after`
   *   names when `args` is empty
   */
  constructor(args: readonly string[], frames: readonly string[], previous?: string) {
    this.#args = previous === undefined ? args : [previous, ...args];
    this.#pos = previous === undefined ? 0 : 1;
    this.frames = frames;
  }

  /** `getNextOption()`: the next argument starting with `-` (`-Sdata` gives `-S`), `undefined` at `--` or a non-option. */
  nextOption(): string | undefined {
    if (this.#curArgData !== undefined) {
      const prev = this.#args[this.#pos - 1];
      throw new JavaException('java.lang.IllegalArgumentException', `No argument expected after "${prev}"`, this.frames);
    }
    const arg = this.#args[this.#pos];
    if (arg === undefined || !arg.startsWith('-')) return undefined;
    this.#pos += 1;
    if (arg === '--') return undefined;
    if (arg.length > 1 && arg[1] !== '-') {
      if (arg.length > 2) {
        this.#curArgData = arg.slice(2);
        return arg.slice(0, 2);
      }
      return arg;
    }
    return arg;
  }

  /** `getNextArg()`: the data of `-Sdata`, else the next argument, or `undefined`. */
  next(): string | undefined {
    if (this.#curArgData !== undefined) {
      const data = this.#curArgData;
      this.#curArgData = undefined;
      return data;
    }
    const arg = this.#args[this.#pos];
    if (arg !== undefined) this.#pos += 1;
    return arg;
  }

  /** `peekNextArg()`. */
  peek(): string | undefined {
    return this.#curArgData ?? this.#args[this.#pos];
  }

  /** `getNextArgRequired()`: throws `Argument expected after "PREVIOUS"` at the end. */
  required(): string {
    const arg = this.next();
    if (arg === undefined) {
      const prev = this.#args[this.#pos - 1];
      throw new JavaException('java.lang.IllegalArgumentException', `Argument expected after "${prev}"`, this.frames);
    }
    return arg;
  }

  /** Every argument left (`getRemainingArgs` of the package manager's command). */
  rest(): string[] {
    const rest: string[] = [];
    for (let arg; (arg = this.next()) !== undefined;) rest.push(arg);
    return rest;
  }
}

/** `UserHandle.USER_ALL`. */
export const USER_ALL = -1;
/** `UserHandle.USER_CURRENT`. */
export const USER_CURRENT = -2;

/** `UserHandle.parseUserArg(arg)`: `all` -1, `current`/`cur` -2, else a number (`Bad user number: ARG`). */
export function parseUserArg(arg: string, frames: readonly string[]): number {
  if (arg === 'all') return USER_ALL;
  if (arg === 'current' || arg === 'cur') return USER_CURRENT;
  try {
    return parseJavaInt(arg);
  } catch {
    throw new JavaException('java.lang.IllegalArgumentException', `Bad user number: ${arg}`, frames);
  }
}

/** The users this device has: the system user alone. */
export function userExists(user: number): boolean {
  return user === 0;
}

/**
 * `BasicShellCommandHandler.exec`: runs `onCommand` for `argv` (its first element the command),
 * answering a `JavaException` the way Android prints one (empty line, `Exception occurred while
 * executing 'CMD':`, the stack trace, on standard error) with -1, and turns the Java return value
 * into the exit status `cmd` ends with (its low byte). Other errors are bugs and propagate.
 */
export async function execShellCommand(
  context: CommandContext,
  argv: readonly string[],
  onCommand: (command: string | undefined, args: readonly string[]) => Promise<number>,
): Promise<CommandResult> {
  const [command, ...args] = argv;
  let result = -1;
  try {
    result = await onCommand(command, args);
  } catch (error) {
    if (!(error instanceof JavaException)) throw error;
    await eprint(context, `\nException occurred while executing '${command ?? 'null'}':\n`);
    await eprint(context, error.stackTraceText());
  }
  return result & 0xff;
}

/**
 * `BasicShellCommandHandler.handleDefaultCommands`: the help (through `onHelp`) for no command,
 * `help` or `-h`, else `Unknown command: CMD` on standard output; -1 either way.
 */
export async function handleDefaultCommands(
  context: CommandContext,
  command: string | undefined,
  onHelp: () => Promise<void>,
): Promise<number> {
  if (command === undefined || command === 'help' || command === '-h') await onHelp();
  else await println(context, `Unknown command: ${command}`);
  return -1;
}

/** `Binder.handleShellCommand` of a service that has no shell command: a line on standard error, status 0. */
export async function noShellCommand(context: CommandContext): Promise<number> {
  await eprintln(context, 'No shell command implementation.');
  return 0;
}
