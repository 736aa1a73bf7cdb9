/**
 * The simulated Android device: its state (properties, file system, command table, local sockets,
 * authorized keys) and the daemon protocol it speaks to every host connection.
 *
 * Facts: adbd's `adb.cpp` (CNXN banner, `A_VERSION` 0x01000001, `MAX_PAYLOAD` 1 MiB),
 * `daemon/auth.cpp` (token, signature, public key), `transport.cpp` (feature names) and
 * `sockets.cpp` (streams, delayed ack), read in LineageOS/android_packages_modules_adb.
 */
import {createServer, type Server, type Socket} from 'node:net';
import {join} from 'node:path';

import {AuthPolicy, type AuthorizationPrompt} from './auth.ts';
import {startSystemServer} from './framework/server.ts';
import {DeviceFileSystem} from './fs.ts';
import {startHttpServer} from './http-server.ts';
import {createDeviceTree, removeDeviceTree, type DeviceTree} from './rootfs.ts';
import {processPartitions} from './sandbox/image.ts';
import {Sandbox} from './sandbox/sandbox.ts';
import {DeviceTransport} from './transport.ts';
import {SocketClosedError, type ByteConnection, type CommandHandler, type Device, type DeviceSocket, type ServiceHandler} from './types.ts';
import {defaultCommands} from './framework/programs.ts';
import {defaultServices} from './services/index.ts';

/**
 * The features adbd 14 announces in its `CNXN` banner: adbd's `transport.cpp`
 * `supported_features()` (LineageOS/android_packages_modules_adb, `lineage-21.0`), in its order,
 * with `delayed_ack`, which adbd always adds. The sync service decodes and encodes every
 * compression listed here (`services/sync-compression.ts`).
 */
export const DEFAULT_FEATURES: readonly string[] = [
  'shell_v2',
  'cmd',
  'stat_v2',
  'ls_v2',
  'fixed_push_mkdir',
  'apex',
  'abb',
  'fixed_push_symlink_timestamp',
  'abb_exec',
  'remount_shell',
  'track_app',
  'sendrecv_v2',
  'sendrecv_v2_brotli',
  'sendrecv_v2_lz4',
  'sendrecv_v2_zstd',
  'sendrecv_v2_dry_run_send',
  'openscreen_mdns',
  'delayed_ack',
];

/**
 * The system properties of a Pixel 7 (`panther`) on Android 14's February 2024 build
 * (`UQ1A.240205.002`), as `getprop` lists them. Sources, by group (the research notes'
 * `/tmp/research/pixel7.md` §0 and §1 give the commits):
 * - LOS-PANTAH: LineageOS/android_device_google_pantah, `lineage_panther.mk` at 29c01dcb (the
 *   February 2024 fingerprint and `PRIVATE_BUILD_DESC`), `panther/BoardConfig.mk`;
 * - LOS-GS201: LineageOS/android_device_google_gs201 at d0495834 (`device.mk`, `device-common.mk`,
 *   `conf/init.gs201.usb.rc`);
 * - DUMP: leddaz-dump-stash/google_panther_dump, the `vendor/build.prop` (0b947ef4) and
 *   `system/system/build.prop` (fc6088d4) of panther's Android 14 beta images, for the values that
 *   don't change from build to build;
 * - PF-211: the `getprop` of a Pixel 8 on `UQ1A.240205.004` (badabing2005/PixelFlasher issue 211).
 */
export const DEFAULT_PROPERTIES: Readonly<Record<string, string>> = {
  // Build identity: LOS-PANTAH 29c01dcb (fingerprint, id, incremental, description); DUMP system
  // build.prop for the other fields (display.id equals the id; flavor `<product>-<type>`).
  'ro.build.id': 'UQ1A.240205.002',
  'ro.build.display.id': 'UQ1A.240205.002',
  'ro.build.version.incremental': '11224170',
  'ro.build.fingerprint': 'google/panther/panther:14/UQ1A.240205.002/11224170:user/release-keys',
  'ro.build.description': 'panther-user 14 UQ1A.240205.002 11224170 release-keys',
  'ro.build.flavor': 'panther-user',
  'ro.build.product': 'panther',
  'ro.build.type': 'user',
  'ro.build.tags': 'release-keys',
  'ro.build.user': 'android-build',
  'ro.build.characteristics': 'nosdcard', // LOS-GS201 device.mk: PRODUCT_CHARACTERISTICS
  'ro.build.ab_update': 'true', // DUMP vendor build.prop
  // Android version: DUMP system build.prop (a release build: codename REL, preview SDK 0).
  'ro.build.version.release': '14',
  'ro.build.version.release_or_codename': '14',
  'ro.build.version.release_or_preview_display': '14',
  'ro.build.version.sdk': '34',
  'ro.build.version.codename': 'REL',
  'ro.build.version.all_codenames': 'REL',
  'ro.build.version.preview_sdk': '0',
  'ro.build.version.preview_sdk_fingerprint': 'REL',
  'ro.build.version.min_supported_target_sdk': '28',
  'ro.build.version.base_os': '',
  // Derived from the build id's date code (240205): the February 2024 build.prop itself wasn't found.
  'ro.build.version.security_patch': '2024-02-05',
  // Product: DUMP vendor build.prop (`ro.product.vendor.*`, name `panther` on a stable build as in
  // LOS-PANTAH's TARGET_PRODUCT), LOS-PANTAH (PRODUCT_MODEL, TARGET_BOOTLOADER_BOARD_NAME).
  'ro.product.name': 'panther',
  'ro.product.model': 'Pixel 7',
  'ro.product.device': 'panther',
  'ro.product.manufacturer': 'Google',
  'ro.product.brand': 'google',
  'ro.product.board': 'panther',
  'ro.product.first_api_level': '33',
  'ro.product.locale': 'en-US', // DUMP system build.prop
  // 64-bit only: DUMP vendor build.prop (`ro.vendor.product.cpu.abilist*`), DUMP system build.prop
  // (`ro.product.cpu.abi`); a Pixel 8 on UQ1A.240205.004 lists the same (PF-211).
  'ro.product.cpu.abi': 'arm64-v8a',
  'ro.product.cpu.abilist': 'arm64-v8a',
  'ro.product.cpu.abilist32': '',
  'ro.product.cpu.abilist64': 'arm64-v8a',
  // SoC and graphics: DUMP vendor build.prop; LOS-GS201 device.mk (TARGET_BOARD_PLATFORM, GLES
  // 3.2 = 196610) and device-common.mk (ro.soc.*); LOS-PANTAH BoardConfig.mk (density).
  'ro.board.platform': 'gs201',
  'ro.soc.manufacturer': 'Google',
  'ro.soc.model': 'GS201',
  // Inferred, not captured: init imports /vendor/etc/init/hw/init.${ro.hardware}.rc and the only
  // board file panther ships is init.panther.rc (DUMP all_files.txt, LOS-PANTAH conf/).
  'ro.hardware': 'panther',
  'ro.hardware.egl': 'mali',
  'ro.hardware.vulkan': 'mali',
  'ro.opengles.version': '196610',
  'ro.sf.lcd_density': '420',
  // Security of a user build: DUMP system build.prop.
  'ro.secure': '1',
  'ro.adb.secure': '1',
  'ro.debuggable': '0',
  'ro.force.debuggable': '0',
  // Runtime: DUMP vendor build.prop (LOS-GS201 device.mk inherits phone-xhdpi-6144-dalvik-heap.mk).
  'ro.zygote': 'zygote64',
  'persist.sys.dalvik.vm.lib.2': 'libart.so',
  'dalvik.vm.isa.arm64.variant': 'cortex-a55',
  'dalvik.vm.isa.arm64.features': 'default',
  'dalvik.vm.heapstartsize': '16m',
  'dalvik.vm.heapgrowthlimit': '256m',
  'dalvik.vm.heapsize': '512m',
  'dalvik.vm.heaptargetutilization': '0.5',
  'dalvik.vm.heapminfree': '8m',
  'dalvik.vm.heapmaxfree': '32m',
  // Treble: DUMP system build.prop (treble), DUMP vendor build.prop (VNDK).
  'ro.treble.enabled': 'true',
  'ro.vndk.version': '34',
  // USB debugging with "No data transfer": PF-211 (`persist.sys.usb.config` = adb); gs201's init
  // copies sys.usb.config to sys.usb.state (LOS-GS201 conf/init.gs201.usb.rc).
  'persist.sys.usb.config': 'adb',
  'sys.usb.config': 'adb',
  'sys.usb.state': 'adb',
  // adbd: `init.svc.<service>` is init's state of a service; `service.adb.root` 0 = not `adb root`.
  'init.svc.adbd': 'running',
  'service.adb.root': '0',
  // The simulator's own: a serial in the Pixels' 14-character format (PF-211, PF-60), the locale
  // and time zone of its fixed clock, and a finished boot.
  'ro.serialno': '2B141FDH2003ZK',
  'persist.sys.locale': 'en-US',
  'persist.sys.timezone': 'Etc/UTC',
  'sys.boot_completed': '1',
};

export interface DeviceOptions {
  /** Overrides and additions to `DEFAULT_PROPERTIES`. */
  properties?: Record<string, string>;
  /** Features in the CNXN banner. Default `DEFAULT_FEATURES`; drop `delayed_ack` to play Android 13 or older. */
  features?: readonly string[];
  /** Protocol version answered in CNXN `arg0`. Default 0x01000001 (checksums skipped); 0x01000000 plays Android 8 and older. */
  version?: number;
  /** Largest payload the device accepts, answered in CNXN `arg1`, in bytes. Default 1 MiB (adbd `MAX_PAYLOAD`). */
  maxPayloadSize?: number;
  /** Bytes the device lets the host send on a stream before an ack, when both sides offer delayed ack. Default 32 MiB. */
  delayedAckBytes?: number;
  /** `false` plays a device with `ro.adb.secure=0`: CNXN is answered at once. Default `true`. */
  requireAuth?: boolean;
  /** Public keys (ADB format: base64, optionally followed by ` user@host`) already trusted. */
  authorizedKeys?: readonly string[];
  /**
   * The "Allow USB debugging?" dialog, asked when a host sends an unknown public key. Resolves
   * `'always'` (allow and remember), `'allow'` (this connection only) or `'deny'`; a promise that
   * never settles is a dialog nobody answers. Default: `'always'` at once.
   */
  prompt?: AuthorizationPrompt;
  /** The device's wall clock, in milliseconds since the epoch (logcat, file times). Default a fixed 2024-03-01T12:00:00Z. */
  now?: () => number;
}

/** 2024-03-01T12:00:00Z: the fixed clock of the device unless a test gives another. */
export const DEFAULT_NOW = Date.UTC(2024, 2, 1, 12, 0, 0);

/**
 * A simulated Android device. Attach host connections with `listen` (TCP, for Google's ADB server
 * and `AdbDaemonTransport` over `node:net`) or `attach` (any byte stream, e.g. the WebUSB bridge).
 */
export class SimulatedDevice implements Device {
  readonly properties: Map<string, string>;
  readonly features: readonly string[];
  readonly version: number;
  readonly maxPayloadSize: number;
  readonly delayedAckBytes: number;
  readonly auth: AuthPolicy;
  /** The device's files: its own copy of userdata and the shared system image, on the host's disk. */
  readonly tree: DeviceTree;
  readonly fs: DeviceFileSystem;
  /**
   * The framework programs the Node.js side plays (`cmd`, `dumpsys`, `getprop`, `logcat`,
   * `app_process`…), by the name `/system/bin` runs them under. Replace one to change what the
   * device answers.
   */
  readonly commands: Map<string, CommandHandler>;
  /** The services a host can open, tried in order; the first whose `match` accepts the service string runs. */
  readonly services: ServiceHandler[];
  readonly now: () => number;
  /** Host connections currently attached. */
  readonly transports = new Set<DeviceTransport>();
  /** Local sockets that device programs listen on (`localabstract:scrcpy_1a2b3c4d`, `tcp:8080`). */
  readonly #listeners = new Map<string, (socket: DeviceSocket) => void>();
  readonly #servers = new Set<Server>();
  readonly #systemServer: Server;
  #sandbox: Promise<Sandbox> | undefined;
  #closed = false;

  constructor(options: DeviceOptions = {}) {
    this.properties = new Map(Object.entries({...DEFAULT_PROPERTIES, ...options.properties}));
    this.features = options.features ?? DEFAULT_FEATURES;
    this.version = options.version ?? 0x01000001;
    this.maxPayloadSize = options.maxPayloadSize ?? 1024 * 1024;
    this.delayedAckBytes = options.delayedAckBytes ?? 32 * 1024 * 1024;
    this.now = options.now ?? (() => DEFAULT_NOW);
    this.auth = new AuthPolicy({
      required: options.requireAuth ?? true,
      authorizedKeys: options.authorizedKeys ?? [],
      prompt: options.prompt ?? (async () => 'always'),
    });
    this.tree = createDeviceTree(processPartitions(), this.properties, this.now());
    this.fs = new DeviceFileSystem(this.tree.mounts, this.now, this.tree.boot);
    this.commands = defaultCommands();
    this.#systemServer = startSystemServer(this, join(this.tree.sockets, 'system_server'));
    this.services = defaultServices();
    startHttpServer(this);
  }

  /** The CNXN banner: `device::ro.product.name=…;ro.product.model=…;ro.product.device=…;features=…`. */
  banner(): string {
    const props = ['ro.product.name', 'ro.product.model', 'ro.product.device'].map((key) => `${key}=${this.properties.get(key) ?? ''};`);
    return `device::${props.join('')}features=${this.features.join(',')}`;
  }

  /** Runs the daemon protocol on one host connection until it ends; starts the sandbox if it isn't running. */
  attach(connection: ByteConnection): DeviceTransport {
    // A phone's init and adbd run before any host comes: the sandbox starts with the first host,
    // beside its handshake, so that its first shell doesn't wait for it.
    if (!Sandbox.unavailable() && !this.#closed) void this.sandbox().catch(() => undefined);
    const transport = new DeviceTransport(this, connection);
    this.transports.add(transport);
    void transport.closed.then(() => this.transports.delete(transport));
    return transport;
  }

  /**
   * Listens for hosts on TCP, as `adbd` does after `adb tcpip`. Resolves with the port (useful
   * with `port: 0`). Listens on 127.0.0.1 unless told otherwise.
   */
  async listen(port = 5555, host = '127.0.0.1'): Promise<{port: number; close: () => Promise<void>}> {
    const server = createServer((socket) => this.attach(socketConnection(socket)));
    this.#servers.add(server);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    const address = server.address();
    return {
      port: typeof address === 'object' && address ? address.port : port,
      close: () => this.#closeServer(server),
    };
  }

  async #closeServer(server: Server): Promise<void> {
    this.#servers.delete(server);
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /**
   * The sandbox where the device's programs run (started on first use). Rejects when this machine
   * can't run one (`Sandbox.unavailable()` says why).
   */
  async sandbox(): Promise<Sandbox> {
    if (this.#closed) throw new Error('the device is closed');
    // A sandbox whose init died (as a phone's adbd restarts after a crash) is started again.
    if ((await this.#sandbox?.catch(() => undefined))?.exited) this.#sandbox = undefined;
    this.#sandbox ??= Promise.resolve().then(() => new Sandbox(this.tree));
    return this.#sandbox;
  }

  /** Stops listening, hangs up every host, ends the device's programs and removes its files. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const transport of this.transports) transport.close();
    await Promise.all([...this.#servers].map((server) => this.#closeServer(server)));
    const sandbox = await this.#sandbox?.catch(() => undefined);
    sandbox?.close();
    this.#systemServer.close();
    removeDeviceTree(this.tree);
  }

  /**
   * A device program listens on a local socket (`localabstract:NAME`, `tcp:PORT`); a host `OPEN`
   * of that address (a forward tunnel) reaches `onConnect`. Returns the function that stops
   * listening. Throws when the address is taken (`EADDRINUSE`).
   */
  listenLocal(address: string, onConnect: (socket: DeviceSocket) => void): () => void {
    if (this.#listeners.has(address)) throw new Error(`EADDRINUSE: ${address}`);
    this.#listeners.set(address, onConnect);
    return () => {
      if (this.#listeners.get(address) === onConnect) this.#listeners.delete(address);
    };
  }

  /** The program listening on a local address, if any (the forward-tunnel side of `OPEN`). */
  localListener(address: string): ((socket: DeviceSocket) => void) | undefined {
    return this.#listeners.get(address);
  }

  /**
   * A device program connects to a local address. Where a host set a reverse tunnel for it
   * (`reverse:forward:localabstract:NAME;…`), the device opens a stream to that host, as adbd
   * does. Rejects with `ECONNREFUSED` when nothing listens there.
   */
  async connectLocal(address: string): Promise<DeviceSocket> {
    for (const transport of this.transports) {
      const remote = transport.reverseTunnels.get(address);
      if (remote !== undefined) return transport.openToHost(remote);
    }
    throw new Error(`ECONNREFUSED: ${address}`);
  }
}

/** A `node:net` socket as a `ByteConnection`. */
export function socketConnection(socket: Socket): ByteConnection {
  socket.setNoDelay(true);
  return {
    readable: socket,
    write: (data) =>
      new Promise<void>((resolve, reject) => {
        if (socket.destroyed) {
          reject(new SocketClosedError('tcp'));
          return;
        }
        socket.write(data, (error) => (error ? reject(error) : resolve()));
      }),
    close: () => socket.destroy(),
  };
}
