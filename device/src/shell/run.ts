/**
 * Runs command lines on the simulated device: looks each command up in the device's command
 * table, wires its standard streams through redirections and pipes, and returns the exit status
 * as mksh would (127 and `/system/bin/sh: NAME: inaccessible or not found` for an unknown
 * command; the last command's status for a pipeline; `&&`/`||` short-circuit).
 */
import type {SimulatedDevice} from '../device.ts';
import {SocketClosedError, type CommandContext, type WindowSize} from '../types.ts';
import {parse, ShellSyntaxError, STATUS_MARK, type SimpleCommand} from './parse.ts';

/** The standard streams a line runs with (see `CommandContext` for each). */
export interface ShellIo {
  readStdin(signal?: AbortSignal): Promise<Uint8Array | undefined>;
  stdout(data: Uint8Array | string): Promise<void>;
  stderr(data: Uint8Array | string): Promise<void>;
  pty: boolean;
  signal: AbortSignal;
  window?: WindowSize;
}

/** Thrown by the `exit` builtin: ends the shell with `code`. */
export class ShellExit extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const toBytes = (data: Uint8Array | string) => (typeof data === 'string' ? encoder.encode(data) : data);

/** Standard input that yields one buffer, then ends. */
function bufferInput(data: Uint8Array): () => Promise<Uint8Array | undefined> {
  let done = data.length === 0;
  return async () => {
    if (done) return undefined;
    done = true;
    return data;
  };
}

/**
 * The prompt of Android's interactive mksh (`/system/etc/mkshrc`: `PS1` shows a non-zero `$?`
 * before the device name): `panther:/ $ `, `130|panther:/ $ `, `#` for root.
 */
function prompt(device: SimulatedDevice, status: number): string {
  const name = device.properties.get('ro.product.device') ?? 'generic';
  return `${status === 0 ? '' : `${status}|`}${name}:/ ${device.properties.get('service.adb.root') === '1' ? '#' : '$'} `;
}

/**
 * Runs the command lines that arrive on standard input, each as soon as its line is complete, as
 * mksh does (a last line without a newline runs at the end of input). `interactive` is the shell
 * a user types into: it prints the prompt before each line, and under a PTY the terminal echoes
 * what arrives and its `intr` character, Ctrl+C (0x03), throws away the line being typed (`^C`,
 * then a new prompt, with `$?` 130).
 *
 * @returns The status of the last command, or the code `exit` gave.
 */
export async function runScript(device: SimulatedDevice, io: ShellIo, env: Record<string, string>, interactive: boolean): Promise<number> {
  const state = {status: 0};
  const run = async (line: string) => {
    try {
      await runLine(device, line, io, env, state);
    } catch (error) {
      if (error instanceof ShellExit) return error.code;
      throw error;
    }
    if (interactive) await io.stdout(prompt(device, state.status));
    return undefined;
  };
  if (interactive) await io.stdout(prompt(device, state.status));
  let pending = '';
  for (;;) {
    const chunk = await io.readStdin();
    if (!chunk) return (!interactive && pending !== '' ? await run(pending) : undefined) ?? state.status;
    let text = decoder.decode(chunk);
    if (io.pty && interactive) {
      const interrupt = text.lastIndexOf('\x03');
      if (interrupt !== -1) {
        await io.stdout(`${text.slice(0, interrupt).replaceAll('\x03', '^C')}^C\n`);
        text = text.slice(interrupt + 1);
        pending = '';
        state.status = 130;
        await io.stdout(prompt(device, state.status));
      }
      await io.stdout(text.replace(/\r\n?/g, '\n'));
    }
    pending += text;
    let end: number;
    while ((end = pending.search(/[\r\n]/)) !== -1) {
      const line = pending.slice(0, end);
      pending = pending.slice(end + (pending.startsWith('\r\n', end) ? 2 : 1));
      const code = await run(line);
      if (code !== undefined) return code;
    }
  }
}

/**
 * Runs one command line. `env` holds the shell's variables (assignments without a command change
 * it); `state.status` is `$?` before and after. Throws `ShellExit` when `exit` ran.
 */
export async function runLine(
  device: SimulatedDevice,
  line: string,
  io: ShellIo,
  env: Record<string, string>,
  state: {status: number},
): Promise<number> {
  let list;
  try {
    list = parse(line, env);
  } catch (error) {
    if (!(error instanceof ShellSyntaxError)) throw error;
    await io.stderr(`/system/bin/sh: ${error.message}\n`);
    state.status = 2;
    return 2;
  }
  for (const {connector, pipeline} of list) {
    if (connector === '&&' && state.status !== 0) continue;
    if (connector === '||' && state.status === 0) continue;
    let stdin = io.readStdin;
    for (let i = 0; i < pipeline.length; i++) {
      const last = i === pipeline.length - 1;
      const captured: Uint8Array[] = [];
      const stdout = last ? io.stdout : async (data: Uint8Array | string) => void captured.push(toBytes(data));
      const status = String(state.status);
      const command = pipeline[i]!;
      command.argv = command.argv.map((word) => word.replaceAll(STATUS_MARK, status));
      state.status = await runCommand(device, command, {...io, readStdin: stdin, stdout}, env);
      if (!last) stdin = bufferInput(Buffer.concat(captured));
    }
  }
  return state.status;
}

async function runCommand(device: SimulatedDevice, command: SimpleCommand, io: ShellIo, env: Record<string, string>): Promise<number> {
  if (command.argv.length === 0) {
    Object.assign(env, command.assignments);
    return 0;
  }
  const files: Array<{path: string; append: boolean; chunks: Uint8Array[]}> = [];
  const fd: Record<number, (data: Uint8Array | string) => Promise<void>> = {1: io.stdout, 2: io.stderr};
  let readStdin = io.readStdin;
  for (const redirect of command.redirects) {
    if (redirect.op === '>&') {
      const target = fd[Number(redirect.target)];
      if (target) fd[redirect.fd] = target;
    } else if (redirect.op === '<') {
      let data: Uint8Array;
      try {
        data = redirect.target === '/dev/null' ? new Uint8Array(0) : device.fs.readFile(redirect.target);
      } catch {
        await io.stderr(`/system/bin/sh: can't open ${redirect.target}: No such file or directory\n`);
        return 1;
      }
      readStdin = bufferInput(data);
    } else if (redirect.target === '/dev/null') {
      fd[redirect.fd] = async () => undefined;
    } else {
      const file = {path: redirect.target, append: redirect.op === '>>', chunks: [] as Uint8Array[]};
      files.push(file);
      fd[redirect.fd] = async (data) => void file.chunks.push(toBytes(data));
    }
  }

  const name = command.argv[0]!;
  const handler = device.commands.get(name.slice(name.lastIndexOf('/') + 1));
  let status: number;
  if (!handler) {
    await fd[2]!(`/system/bin/sh: ${name}: inaccessible or not found\n`);
    status = 127;
  } else {
    const context: CommandContext = {
      device,
      argv: command.argv,
      env: {...env, ...command.assignments},
      readStdin,
      stdout: fd[1]!,
      stderr: fd[2]!,
      pty: io.pty,
      signal: io.signal,
      window: io.window,
    };
    try {
      status = await handler(context);
    } catch (error) {
      if (error instanceof ShellExit || error instanceof SocketClosedError) throw error;
      await fd[2]!(`${name}: ${error instanceof Error ? error.message : String(error)}\n`);
      status = 1;
    }
  }
  for (const file of files) {
    let previous: Uint8Array = new Uint8Array(0);
    if (file.append) {
      try {
        previous = device.fs.readFile(file.path);
      } catch {
        // A new file.
      }
    }
    try {
      device.fs.writeFile(file.path, Buffer.concat([previous, ...file.chunks]));
    } catch (error) {
      await io.stderr(`/system/bin/sh: can't create ${file.path}: ${(error as Error).message}\n`);
      status = 1;
    }
  }
  return status;
}
