/**
 * The Scrcpy server versions the simulated server plays, and the facts that differ between them.
 *
 * The list is every version `@yume-chan/scrcpy` 2.0.1 has an options class for (1.15 to 3.1; the
 * docs also cover 0.0.24 and 1.x of the library, whose classes are a subset). The facts come from
 * reading the server at each tag of Genymobile/scrcpy (`server/src/main/java/com/genymobile/scrcpy/`):
 * `Server.java` and `Options.java` (arguments, version check, exit), `DesktopConnection.java`
 * (sockets), `ScreenEncoder.java`/`Streamer.java` (packet headers), `ControlMessageReader.java`,
 * `DeviceMessageWriter.java`, `Controller.java`, `LogUtils.java`, `CleanUp.java`.
 */

/**
 * Every version string the simulated server answers to, oldest first, spelled as the released
 * server reports it (`BuildConfig.VERSION_NAME`): the 2.2 release calls itself `v2.2`.
 */
export const SERVER_VERSIONS: readonly string[] = [
  '1.15',
  '1.15.1',
  '1.16',
  '1.17',
  '1.18',
  '1.19',
  '1.20',
  '1.21',
  '1.22',
  '1.23',
  '1.24',
  '1.25',
  '2.0',
  '2.1',
  '2.1.1',
  'v2.2',
  '2.3',
  '2.3.1',
  '2.4',
  '2.5',
  '2.6',
  '2.6.1',
  '2.7',
  '3.0',
  '3.0.1',
  '3.0.2',
  '3.1',
];

/** The version a server with no other clue plays (the newest the library knows). */
export const LATEST_SERVER_VERSION = '3.1';

/**
 * A version string as a comparable number: `'3.0.2'` → 30002, `'v2.2'` → 20200, `'1.15.1'` →
 * 11501. Returns `NaN` for a string that is not `[v]MAJOR.MINOR[.PATCH]`.
 */
export function versionNumber(name: string): number {
  const match = /^v?(\d+)\.(\d+)(?:\.(\d+))?$/.exec(name);
  if (!match) return Number.NaN;
  return Number(match[1]) * 10000 + Number(match[2]) * 100 + Number(match[3] ?? 0);
}

/**
 * Where the server's own frames sit in the stack trace of an argument error, per version: the
 * file and method that check the arguments, the line of each `throw`, and the calling lines.
 * Read from `Server.java`/`Options.java` at each tag (the `throw new IllegalArgumentException(`
 * line; Java reports the line where the exception is constructed).
 */
export interface ArgumentCheckSite {
  /** `Server.java` (`createOptions`, up to 2.0) or `Options.java` (`parse`, from 2.1). */
  file: 'Server.java' | 'Options.java';
  method: 'createOptions' | 'parse';
  /** Line of the "does not match the client" throw. */
  versionLine: number;
  /** Line of the "Expecting N parameters" throw (1.15–1.20) or the "Invalid key=value pair" throw (1.21+). */
  argumentLine: number;
  /** Line in `Server.java` that calls the check, and the method it is in. */
  callLine: number;
  caller: 'main' | 'internalMain';
  /** Line in `Server.main` that calls `internalMain` (2.2+). */
  mainLine?: number;
}

const site = (
  file: ArgumentCheckSite['file'],
  versionLine: number,
  argumentLine: number,
  callLine: number,
  mainLine?: number,
): ArgumentCheckSite => ({
  file,
  method: file === 'Server.java' ? 'createOptions' : 'parse',
  versionLine,
  argumentLine,
  callLine,
  caller: mainLine === undefined ? 'main' : 'internalMain',
  mainLine,
});

/** `ArgumentCheckSite` of every version in `SERVER_VERSIONS`. */
export const ARGUMENT_CHECK_SITES: Readonly<Record<string, ArgumentCheckSite>> = {
  '1.15': site('Server.java', 119, 125, 221),
  '1.15.1': site('Server.java', 119, 125, 221),
  '1.16': site('Server.java', 119, 125, 221),
  '1.17': site('Server.java', 134, 140, 248),
  '1.18': site('Server.java', 134, 140, 251),
  '1.19': site('Server.java', 134, 140, 251),
  '1.20': site('Server.java', 134, 140, 251),
  '1.21': site('Server.java', 159, 169, 305),
  '1.22': site('Server.java', 166, 176, 322),
  '1.23': site('Server.java', 167, 177, 327),
  '1.24': site('Server.java', 167, 177, 331),
  '1.25': site('Server.java', 166, 176, 330),
  '2.0': site('Server.java', 172, 182, 360),
  '2.1': site('Options.java', 188, 198, 178),
  '2.1.1': site('Options.java', 188, 198, 178),
  'v2.2': site('Options.java', 237, 247, 207, 190),
  '2.3': site('Options.java', 237, 247, 216, 199),
  '2.3.1': site('Options.java', 237, 247, 216, 199),
  '2.4': site('Options.java', 237, 247, 231, 214),
  '2.5': site('Options.java', 237, 247, 231, 214),
  '2.6': site('Options.java', 252, 262, 262, 245),
  '2.6.1': site('Options.java', 252, 262, 262, 245),
  '2.7': site('Options.java', 252, 262, 262, 245),
  '3.0': site('Options.java', 288, 298, 218, 201),
  '3.0.1': site('Options.java', 288, 298, 218, 201),
  '3.0.2': site('Options.java', 288, 298, 218, 201),
  '3.1': site('Options.java', 293, 303, 218, 201),
};

/**
 * One server version and the protocol facts that depend on it. Each getter names the version
 * range and the source it was read from.
 */
export class ServerVersion {
  /** The version string, as the server reports it (`'3.1'`, `'v2.2'`). */
  readonly name: string;
  /** `versionNumber(name)`. */
  readonly number: number;

  /** Throws `RangeError` for a name not in `SERVER_VERSIONS`. */
  constructor(name: string) {
    if (!SERVER_VERSIONS.includes(name)) throw new RangeError(`unsupported scrcpy server version ${name}`);
    this.name = name;
    this.number = versionNumber(name);
  }

  /** Whether this version is `version` or newer (`version` as in `SERVER_VERSIONS`, with or without `v`). */
  atLeast(version: string): boolean {
    return this.number >= versionNumber(version);
  }

  /** Before 1.21 options are positional (`Server.createOptions`); from 1.21 `key=value`. */
  get keyValueOptions(): boolean {
    return this.atLeast('1.21');
  }

  /** Positional argument count, the version included (1.15/1.16: 14, 1.17: 15, 1.18–1.20: 16). */
  get positionalCount(): number {
    if (this.atLeast('1.18')) return 16;
    if (this.atLeast('1.17')) return 15;
    return 14;
  }

  /** From 2.2 `main` catches every error, logs it and calls `System.exit(1)`; before, it escapes `main`. */
  get catchesInMain(): boolean {
    return this.atLeast('2.2');
  }

  /** From 2.0: `scid`, audio, codec metadata, the `list_*` options (`Options`/`Server`). */
  get hasAudio(): boolean {
    return this.atLeast('2.0');
  }

  /** From 2.1 the video socket is optional (`video=false`) and the dummy byte and device name go to the first socket. */
  get videoOptional(): boolean {
    return this.atLeast('2.1');
  }

  /** From 1.22 the control socket is opened only with `control=true`; before, always (`DesktopConnection.open`). */
  get controlOptional(): boolean {
    return this.atLeast('1.22');
  }

  /** Before 2.0 the device metadata carries the video size (u16 width, u16 height) after the name. */
  get deviceMetaHasSize(): boolean {
    return !this.atLeast('2.0');
  }

  /** From 1.23 a config packet's PTS is `1 << 63` and a key frame's has `1 << 62`; before, a config packet's PTS is -1 (`NO_PTS`). */
  get ptsFlags(): boolean {
    return this.atLeast('1.23');
  }

  /** Before 2.0 the PTS counts from the first frame (`ptsOrigin`); from 2.0 it is the encoder's timestamp. */
  get ptsFromZero(): boolean {
    return !this.atLeast('2.0');
  }

  /** The `Device:` log line: `[MANUFACTURER] BRAND MODEL` from 2.1, `MANUFACTURER MODEL` before. */
  get deviceLineWithBrand(): boolean {
    return this.atLeast('2.1');
  }

  /** `raw_stream` (2.1+) or `raw_video_stream` (1.22–2.0). */
  get rawStreamOption(): string {
    return this.atLeast('2.1') ? 'raw_stream' : 'raw_video_stream';
  }

  /** Audio codecs: `opus`, `aac`, `raw` from 2.0, `flac` from 2.3 (`AudioCodec.java`). */
  get audioCodecs(): readonly string[] {
    return this.atLeast('2.3') ? ['opus', 'aac', 'flac', 'raw'] : ['opus', 'aac', 'raw'];
  }

  /** Audio sources: `output`, `mic` from 2.1, `playback` from 2.6 (`AudioSource.java`). */
  get audioSources(): readonly string[] {
    return this.atLeast('2.6') ? ['output', 'mic', 'playback'] : ['output', 'mic'];
  }

  /** `clipboard_autosync` exists from 1.21; the acknowledgement device message too. */
  get clipboardAutosyncOption(): boolean {
    return this.atLeast('1.21');
  }

  /** The `cleanup` option exists from 1.23; before, the server always removes its file. */
  get cleanupOption(): boolean {
    return this.atLeast('1.23');
  }

  /** From 2.7 an unknown control message type stops the controller (`ControlProtocolException`); before, it is logged and parsing stalls. */
  get unknownControlMessageIsFatal(): boolean {
    return this.atLeast('2.7');
  }

  /** Where the argument check sits, for stack traces. */
  get argumentCheckSite(): ArgumentCheckSite {
    return ARGUMENT_CHECK_SITES[this.name]!;
  }
}

/**
 * The version the simulated server plays for a client version argument, when nothing pins it:
 * the client's own version when it is a released server version, else the release that the client
 * string names without its `v` (`'2.2'` → `'v2.2'`, so the mismatch message is the real one),
 * else `LATEST_SERVER_VERSION`.
 */
export function serverVersionFor(clientVersion: string | undefined): string {
  if (clientVersion !== undefined && SERVER_VERSIONS.includes(clientVersion)) return clientVersion;
  if (clientVersion !== undefined) {
    const sameNumber = SERVER_VERSIONS.find((name) => versionNumber(name) === versionNumber(clientVersion));
    if (sameNumber) return sameNumber;
  }
  return LATEST_SERVER_VERSION;
}
