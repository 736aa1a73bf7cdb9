/**
 * What the Android side of one simulated device remembers between commands: its packages and
 * install sessions, settings, the events `input` injected, the activities started, the log
 * buffers, the display overrides of `wm`, the battery. Each device gets its own, created on first
 * use (`androidState(device)`) and seeded with fixed data, so outputs are the same on every run.
 *
 * Facts: the battery fields are `BatteryService`'s `mHealthInfo` as `dumpsys battery` prints
 * them (`frameworks/base/services/core/java/com/android/server/BatteryService.java`); the settings
 * tables are `SettingsProvider`'s `system`, `secure` and `global`; log records are logd's
 * (`system/logging/liblog/include/log/log_read.h` `logger_entry`, buffer ids of `log_id_t`).
 */
import type {CommandContext} from '../types.ts';
import {SEEDED_PACKAGES, type PackageSeed} from '../packages.ts';
import {PHYSICAL_SIZE} from '../screen.ts';

/** The device a command runs on. */
export type Device = CommandContext['device'];

/** A package the package manager knows (see `packages.ts` for the seeded ones). */
export interface PackageRecord extends PackageSeed {
  /** Split APKs besides `base.apk`, by split name. */
  splits: string[];
  /** Whether it is installed for user 0 (`pm uninstall --user 0` of a system app clears it). */
  installed: boolean;
  /** Seconds since the epoch. */
  firstInstallTime: number;
}

/** An install session (`pm install-create`). */
export interface InstallSession {
  id: number;
  /** Name written with `install-write` → APK bytes. */
  files: Map<string, Uint8Array>;
  /** Split names `install-remove`d (or `pm uninstall PACKAGE SPLIT…`). */
  removeSplits: string[];
  /** The package whose splits the session inherits (`-p`, `pm uninstall PACKAGE SPLIT…`). */
  inheritFrom?: string;
  installer: string | null;
}

/** One event `input` injected, as the tests read it back. */
export type InputEvent =
  | {type: 'tap'; x: number; y: number; source: string; displayId: number}
  | {type: 'swipe'; x1: number; y1: number; x2: number; y2: number; durationMs: number; source: string; displayId: number}
  | {type: 'text'; text: string; source: string; displayId: number}
  | {type: 'keyevent'; keyCode: number; name: string; longpress: boolean; source: string; displayId: number}
  | {type: 'other'; argv: string[]};

/** An activity `am start` (or `monkey`) started. */
export interface ActivityStart {
  component: string;
  action?: string;
  data?: string;
  categories: string[];
  extras: Record<string, string | number | boolean>;
  user: number;
}

/** A log record in a logd buffer. */
export interface LogEntry {
  /** `log_id_t`: 0 main, 1 radio, 2 events, 3 system, 4 crash, 7 kernel. */
  buffer: number;
  /** `android_LogPriority`: 2 V, 3 D, 4 I, 5 W, 6 E, 7 F. */
  priority: number;
  tag: string;
  message: string;
  pid: number;
  tid: number;
  uid: number;
  seconds: number;
  nanoseconds: number;
}

/** A settings table. */
export type Namespace = 'system' | 'secure' | 'global';

/** The fields of `dumpsys battery` (`BatteryService.mHealthInfo`) and whether updates are stopped. */
export interface BatteryState {
  acPowered: boolean;
  usbPowered: boolean;
  wirelessPowered: boolean;
  dockPowered: boolean;
  maxChargingCurrent: number;
  maxChargingVoltage: number;
  chargeCounter: number;
  status: number;
  health: number;
  present: boolean;
  level: number;
  voltage: number;
  temperature: number;
  technology: string;
  /** `mInvalidCharger` (`dumpsys battery set invalid N`). */
  invalidCharger: number;
  updatesStopped: boolean;
}

/** Everything the Android programs remember about one device. */
export interface AndroidState {
  packages: Map<string, PackageRecord>;
  settings: Record<Namespace, Map<string, string>>;
  sessions: Map<number, InstallSession>;
  nextSessionId: number;
  nextUid: number;
  input: InputEvent[];
  activities: ActivityStart[];
  /** The component in front (`am start` of it again only delivers the intent). */
  foreground: string | undefined;
  log: LogEntry[];
  /** Called when an entry is added (for `logcat` without `-d`). */
  logListeners: Set<() => void>;
  display: {overrideWidth?: number; overrideHeight?: number; overrideDensity?: number};
  /** What the health HAL reports (`mLastHealthInfo`), which `dumpsys battery reset` goes back to. */
  batteryHardware: BatteryState;
  /** What the battery service reports (`mHealthInfo`), changed by `dumpsys battery set|unplug`. */
  battery: BatteryState;
  screenOn: boolean;
}

const states = new WeakMap<Device, AndroidState>();

/** A fresh device's settings (`SettingsProvider` defaults of a Pixel 7, plus what setup wrote); `settings reset` goes back to them. */
export function defaultSettings(device: Device): Record<Namespace, Map<string, string>> {
  const model = device.properties.get('ro.product.model') ?? 'Pixel 7';
  return {
    system: new Map([
      ['accelerometer_rotation', '1'],
      ['alarm_alert', 'content://media/internal/audio/media/21?title=Fresh%20start&canonical=1'],
      ['dim_screen', '1'],
      ['font_scale', '1.0'],
      ['haptic_feedback_enabled', '1'],
      ['notification_sound', 'content://media/internal/audio/media/33?title=Eureka&canonical=1'],
      ['ringtone', 'content://media/internal/audio/media/41?title=Your%20New%20Adventure&canonical=1'],
      ['screen_brightness', '102'],
      ['screen_brightness_mode', '1'],
      ['screen_off_timeout', '30000'],
      ['sound_effects_enabled', '1'],
      ['time_12_24', '24'],
      ['user_rotation', '0'],
      ['vibrate_when_ringing', '0'],
    ]),
    secure: new Map([
      ['android_id', '5f3c9a7b21d04e68'],
      ['backup_enabled', '1'],
      ['bluetooth_name', model],
      ['default_input_method', 'com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME'],
      ['enabled_input_methods', 'com.google.android.inputmethod.latin/com.android.inputmethod.latin.LatinIME'],
      ['location_mode', '3'],
      ['navigation_mode', '2'],
      ['screensaver_enabled', '0'],
      ['show_ime_with_hard_keyboard', '0'],
      ['skip_first_use_hints', '1'],
      ['user_setup_complete', '1'],
    ]),
    global: new Map([
      ['adb_enabled', '1'],
      ['adb_wifi_enabled', '0'],
      ['airplane_mode_on', '0'],
      ['animator_duration_scale', '1.0'],
      ['auto_time', '1'],
      ['auto_time_zone', '1'],
      ['bluetooth_on', '1'],
      ['boot_count', '12'],
      ['development_settings_enabled', '1'],
      ['device_name', model],
      ['device_provisioned', '1'],
      ['mobile_data', '1'],
      ['package_verifier_user_consent', '1'],
      ['stay_on_while_plugged_in', '0'],
      ['transition_animation_scale', '1.0'],
      ['usb_mass_storage_enabled', '1'],
      ['wifi_on', '1'],
      ['window_animation_scale', '1.0'],
    ]),
  };
}

/** The log of a device that booted some minutes before its clock's now: `(seconds before now, buffer, priority, tag, message, pid, tid, uid)`. */
const SEEDED_LOG: readonly (readonly [number, number, number, string, string, number, number, number])[] = [
  [600.0, 0, 4, 'auditd', 'type=2000 audit(0.0:1): state=initialized audit_enabled=0 res=1', 421, 421, 1036],
  [598.512, 3, 4, 'SystemServer', 'Entered the Android system server!', 1501, 1501, 1000],
  [
    596.204,
    3,
    4,
    'ActivityManager',
    'Start proc 2143:com.android.systemui/u0a171 for service {com.android.systemui/com.android.systemui.SystemUIService}',
    1501,
    1539,
    1000,
  ],
  [
    594.87,
    0,
    3,
    'BatteryService',
    'Processing new values: info={.chargerAcOnline = false, .chargerUsbOnline = true, .batteryLevel = 85}',
    1501,
    1501,
    1000,
  ],
  [
    590.003,
    3,
    4,
    'ActivityTaskManager',
    'START u0 {act=android.intent.action.MAIN cat=[android.intent.category.HOME] flg=0x10000100 cmp=com.google.android.apps.nexuslauncher/.NexusLauncherActivity} with LAUNCH_SINGLE_TASK from uid 0 (BAL_ALLOW_ALLOWLISTED_UID) result code=0',
    1501,
    1566,
    1000,
  ],
  [585.731, 0, 4, 'adbd', 'adbd started', 1122, 1122, 2000],
  [412.118, 0, 5, 'ConnectivityService', 'NetworkAgentInfo [WIFI () - 100] validation passed', 1501, 1783, 1000],
  [301.55, 0, 3, 'WifiNl80211Manager', 'Scan result ready event', 1501, 1840, 1010],
  [
    240.0,
    4,
    6,
    'AndroidRuntime',
    'FATAL EXCEPTION: main\nProcess: com.example.app, PID: 4242\njava.lang.IllegalStateException: demo crash\n\tat com.example.app.MainActivity.onCreate(MainActivity.java:21)',
    4242,
    4242,
    10216,
  ],
  [239.98, 3, 4, 'ActivityManager', 'Process com.example.app (pid 4242) has died: fg  TOP ', 1501, 1539, 1000],
  [120.25, 0, 4, 'chromium', '[INFO:CONSOLE(1)] "Page loaded", source: https://example.com/ (1)', 3310, 3310, 10160],
  [
    60.5,
    0,
    2,
    'NotificationService',
    'enqueueNotificationInternal: pkg=com.whatsapp id=1 notification=Notification(channel=individual_chat_defaults)',
    1501,
    2012,
    1000,
  ],
  [30.125, 0, 4, 'GCoreFlp', 'No location to return for getLastLocation()', 2470, 2511, 10151],
  [
    5.0,
    3,
    5,
    'PackageManager',
    'Not granting permission android.permission.SYSTEM_ALERT_WINDOW to package com.termux: not requested',
    1501,
    1539,
    1000,
  ],
  [1.75, 0, 4, 'ActivityManager', 'Displayed com.google.android.apps.nexuslauncher/.NexusLauncherActivity: +412ms', 1501, 1566, 1000],
];

/** The battery of a fresh device: 85 %, charging over USB. */
function seededBattery(): BatteryState {
  return {
    acPowered: false,
    usbPowered: true,
    wirelessPowered: false,
    dockPowered: false,
    maxChargingCurrent: 500000,
    maxChargingVoltage: 5000000,
    chargeCounter: 3663000,
    status: 2,
    health: 2,
    present: true,
    level: 85,
    voltage: 4231,
    temperature: 287,
    technology: 'Li-ion',
    invalidCharger: 0,
    updatesStopped: false,
  };
}

/**
 * The Android state of `device`, created (and seeded) on first use: its packages
 * (`SEEDED_PACKAGES`), settings, log buffers (fixed entries timed before `device.now()`), an
 * empty input/activity record, the panel's display size and a battery at 85 % on USB power.
 */
export function androidState(device: Device): AndroidState {
  let state = states.get(device);
  if (state) return state;
  const now = device.now();
  const packages = new Map<string, PackageRecord>();
  for (const seed of SEEDED_PACKAGES) {
    packages.set(seed.name, {
      ...seed,
      splits: [...(seed.splits ?? [])],
      installed: true,
      firstInstallTime: Math.floor(now / 1000) - 25 * 86400,
    });
  }
  const log: LogEntry[] = SEEDED_LOG.map(([ago, buffer, priority, tag, message, pid, tid, uid]) => {
    const ms = now - Math.round(ago * 1000);
    return {buffer, priority, tag, message, pid, tid, uid, seconds: Math.floor(ms / 1000), nanoseconds: (ms % 1000) * 1_000_000 + 123_456};
  });
  state = {
    packages,
    settings: defaultSettings(device),
    sessions: new Map(),
    nextSessionId: 1342072181,
    nextUid: 10216,
    input: [],
    activities: [],
    foreground: 'com.google.android.apps.nexuslauncher/.NexusLauncherActivity',
    log,
    logListeners: new Set(),
    display: {},
    batteryHardware: seededBattery(),
    battery: seededBattery(),
    screenOn: true,
  };
  states.set(device, state);
  return state;
}

/** The display size screenshots and `framebuffer:` use: `wm size`'s override, else the panel's 1080 × 2400. */
export function displaySize(device: Device): {width: number; height: number} {
  const {display} = androidState(device);
  return {width: display.overrideWidth ?? PHYSICAL_SIZE.width, height: display.overrideHeight ?? PHYSICAL_SIZE.height};
}

/** Adds a log entry at the device's clock (it shows in `logcat`, and wakes `logcat` followers). */
export function addLog(device: Device, entry: Omit<LogEntry, 'seconds' | 'nanoseconds'>): void {
  const state = androidState(device);
  const ms = device.now();
  state.log.push({...entry, seconds: Math.floor(ms / 1000), nanoseconds: (ms % 1000) * 1_000_000});
  for (const listener of state.logListeners) listener();
}

/** The package `name` if it is installed for user 0. */
export function installedPackage(state: AndroidState, name: string): PackageRecord | undefined {
  const record = state.packages.get(name);
  return record?.installed ? record : undefined;
}
