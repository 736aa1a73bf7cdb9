/**
 * Where tests and the rest of the simulated device reach the Scrcpy servers that ran on a
 * device: `scrcpyOf(device)` returns the device's `ScrcpyRegistry`, with every server run, every
 * streaming session and its recorded control messages, and the device clipboard the sessions
 * synchronize.
 */
import type {ServerOptions} from './options.ts';
import type {ControlMessageKind} from './protocol.ts';
import type {Device} from '../types.ts';

/**
 * A control message the server received, decoded with the layout of the session's version:
 * `kind` names it (`InjectTouch`, `SetClipboard`, …; the library's `ScrcpyControlMessageType`
 * keys), `type` is the byte on the wire, and the other fields are the library struct's
 * (`action`, `pointerId` (bigint), `pointerX`, `pointerY`, `videoWidth`, `videoHeight`, `pressure`
 * (0–1), `actionButton`, `buttons` for a touch; `content`, `paste`, `sequence` for a clipboard…).
 */
export interface RecordedControlMessage {
  kind: ControlMessageKind;
  type: number;
  [field: string]: unknown;
}

/** A device message the server sent on the control socket. */
export type SentDeviceMessage =
  {kind: 'clipboard'; text: string} | {kind: 'ackClipboard'; sequence: bigint} | {kind: 'uhidOutput'; id: number; data: Uint8Array};

/** One run of `app_process … com.genymobile.scrcpy.Server`, streaming or not. */
export interface ServerRun {
  /** The arguments after the class name (the client version first). */
  readonly args: readonly string[];
  /** The server version played (`'3.1'`, `'v2.2'`). */
  readonly version: string;
  /** Every line the server printed, stdout and stderr in order. */
  readonly output: readonly string[];
  /** Resolves with the exit code when the process ends. */
  readonly exited: Promise<number>;
}

/** A running (or finished) mirroring session: the sockets are connected and the streams flow. */
export interface ScrcpySessionInfo extends ServerRun {
  /** Registry-wide number, from 1. */
  readonly id: number;
  readonly options: ServerOptions;
  /** `forward` (the server listened) or `reverse` (it connected to the host). */
  readonly tunnel: 'forward' | 'reverse';
  /** The abstract socket name, `scrcpy` or `scrcpy_0000abcd`. */
  readonly socketName: string;
  /** `connecting` until every socket is connected, then `streaming`, then `ended`. */
  readonly state: 'connecting' | 'streaming' | 'ended';
  /** Control messages received, in order. */
  readonly controlMessages: readonly RecordedControlMessage[];
  /** Device messages sent, in order. */
  readonly deviceMessages: readonly SentDeviceMessage[];
  /** Video packets sent (the config packet included), and the PTS of the last frame, in microseconds. */
  readonly videoPackets: number;
  readonly lastVideoPts: bigint | undefined;
  /** Audio packets sent (the config packet included). */
  readonly audioPackets: number;
  /** Resolves when every socket is connected; rejects if the session ends first. */
  readonly connected: Promise<void>;
  /** Resolves with the next control message matching `predicate` (already received ones included); rejects after `timeoutMs`. */
  waitForControlMessage(predicate?: (message: RecordedControlMessage) => boolean, timeoutMs?: number): Promise<RecordedControlMessage>;
  /** Sends a UHID output report to the client (a keyboard's LED state, for example). Throws before 2.4 or without control. */
  sendUhidOutput(id: number, data: Uint8Array): void;
  /** Ends the session as if the process were killed. */
  stop(): void;
}

/** What a session registers so the device clipboard reaches it. */
export interface ClipboardListener {
  /** Called with the new text when the device clipboard changes, except for changes this session made. */
  clipboardChanged(text: string, source: unknown): void;
}

/** The Scrcpy side of one simulated device. */
export class ScrcpyRegistry {
  /** Every server run, in start order (failed ones and listings included). */
  readonly runs: ServerRun[] = [];
  /** Every mirroring session, in start order. */
  readonly sessions: ScrcpySessionInfo[] = [];
  /**
   * The version every server plays, as if that release's file were pushed (`'3.1'`, `'v2.2'`), or
   * `undefined` (default) to play the version each client asks for when the simulation knows it.
   * A stand-in file made by `standInServer(version)` pins its own version and wins over this.
   */
  serverVersion: string | undefined;
  /**
   * Whether the display is turned a quarter from its natural portrait orientation (rotation 1), as
   * a `RotateDevice` control message leaves it (`Device.rotateDevice` toggles between rotation 0
   * and 1); captures started meanwhile see a 2400×1080 display (`capture.ts`).
   */
  landscape = false;
  #clipboard: string | undefined;
  readonly #listeners = new Set<ClipboardListener>();
  readonly #waiters = new Set<(session: ScrcpySessionInfo) => void>();
  #nextId = 1;

  /** The device clipboard text, `undefined` while nothing was ever copied. */
  get clipboard(): string | undefined {
    return this.#clipboard;
  }

  /**
   * Changes the device clipboard, as an app copying text does: every session with clipboard
   * synchronization (control on, and `clipboard_autosync` on from 1.21) sends a clipboard device
   * message, except `source`'s own session (the server ignores the change it made itself).
   */
  setClipboard(text: string, source?: unknown): void {
    this.#clipboard = text;
    for (const listener of this.#listeners) listener.clipboardChanged(text, source);
  }

  /** Registers a session for clipboard changes; returns the function that unregisters it. */
  addClipboardListener(listener: ClipboardListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Sessions not ended yet. */
  get activeSessions(): ScrcpySessionInfo[] {
    return this.sessions.filter((session) => session.state !== 'ended');
  }

  /** Records a run. */
  addRun(run: ServerRun): void {
    this.runs.push(run);
  }

  /** Records a session and wakes `waitForSession` callers; returns its id. */
  addSession(session: ScrcpySessionInfo): void {
    this.sessions.push(session);
    for (const waiter of this.#waiters) waiter(session);
  }

  /** The next session number. */
  nextSessionId(): number {
    return this.#nextId++;
  }

  /**
   * Resolves with the first session (already started or not) matching `predicate`; rejects with
   * an `Error` after `timeoutMs` milliseconds (default 5000).
   */
  waitForSession(predicate: (session: ScrcpySessionInfo) => boolean = () => true, timeoutMs = 5000): Promise<ScrcpySessionInfo> {
    const existing = this.sessions.find(predicate);
    if (existing) return Promise.resolve(existing);
    return new Promise((resolve, reject) => {
      const waiter = (session: ScrcpySessionInfo) => {
        if (!predicate(session)) return;
        clearTimeout(timer);
        this.#waiters.delete(waiter);
        resolve(session);
      };
      const timer = setTimeout(() => {
        this.#waiters.delete(waiter);
        reject(new Error(`no scrcpy session started within ${timeoutMs} ms`));
      }, timeoutMs);
      this.#waiters.add(waiter);
    });
  }
}

const registries = new WeakMap<Device, ScrcpyRegistry>();

/** The Scrcpy registry of `device`, created on first use. */
export function scrcpyOf(device: Device): ScrcpyRegistry {
  let registry = registries.get(device);
  if (!registry) {
    registry = new ScrcpyRegistry();
    registries.set(device, registry);
  }
  return registry;
}

/** First line of a stand-in server file (`standInServer`). */
export const STAND_IN_MAGIC = 'simulated scrcpy-server';

/**
 * The bytes of a stand-in for the server file, to push where a sample pushes
 * `scrcpy-server-vX.Y`: a short text, `simulated scrcpy-server` then `version=X.Y` when
 * `version` is given. The simulated `app_process` only needs the file to exist; a stand-in with a
 * version plays that version whatever the client asks (so a mismatch fails as a real file would).
 */
export function standInServer(version?: string): Uint8Array {
  return new TextEncoder().encode(`${STAND_IN_MAGIC}\n${version === undefined ? '' : `version=${version}\n`}`);
}

/** The version a stand-in file pins (`version=…` on its second line), or `undefined` for any other file. */
export function standInVersion(file: Uint8Array): string | undefined {
  const head = new TextDecoder().decode(file.subarray(0, 200));
  if (!head.startsWith(`${STAND_IN_MAGIC}\n`)) return undefined;
  return /^version=(\S+)$/m.exec(head)?.[1];
}
