/**
 * The apps installed on the simulated Pixel 7 (Android 14) at first boot: system apps from the
 * read-only partitions and a few apps the user installed, with the paths, uids, installers and
 * launcher activities the package manager reports for them.
 *
 * Facts:
 * - Code paths follow `PackageManagerService` conventions: system apps in `/system/app`,
 *   `/system/priv-app`, `/system_ext/priv-app`, `/product/app`, `/product/priv-app`
 *   (`<Dir>/<Name>.apk`), apps of an APEX in `/apex/<apex>/{app,priv-app}/<Dir>@<version>/<Dir>.apk`;
 *   apps installed later, and updates of system apps, in
 *   `/data/app/~~<random>==/<package>-<random>==/base.apk` (Android 11 and later,
 *   `PackageManagerServiceUtils.getNextCodePath`: two random 16-byte values, URL-safe base64).
 * - Which partition and folder each APK of a Pixel 7 on Android 14 is in: the file list of
 *   panther's Android 14 image (leddaz-dump-stash/google_panther_dump `all_files.txt` at 68f75a40):
 *   Messages (`PrebuiltBugle`), `GoogleCamera` and `TipsPrebuilt` are in `/product/priv-app`;
 *   MediaProvider is in the `com.android.mediaprovider` APEX; Chrome is a stub,
 *   `/product/app/Chrome-Stub/Chrome-Stub.apk`, beside the compressed full APK
 *   `/product/app/Chrome/Chrome.apk.gz`.
 * - An APEX app's folder is named `<Dir>@<version>`: `pm list packages -f` captures of Google images
 *   (`/apex/com.android.mediaprovider/priv-app/MediaProviderGoogle@360526000/…` on an emulator).
 * - A compressed system app never runs from `/product`: at boot the package manager decompresses
 *   the `.apk.gz` files of `<Dir>` next to `<Dir>-Stub` into a new `/data/app` folder and keeps the
 *   stub as the hidden system package (`InstallPackageHelper`/`PackageManagerServiceUtils`
 *   `getCompressedFiles`, `decompressPackage`, `disableSystemPackageLPw`), so its path is always in
 *   `/data/app`; Chrome updated from Google Play runs from `/data/app/~~…==/com.android.chrome-…==/base.apk`
 *   (the tombstone of a Pixel 10 Pro in Chromium issue 442065550 has frames in that file).
 * - Uids: apps from 10000 (`Process.FIRST_APPLICATION_UID`); the packages that declare
 *   `android:sharedUserId="android.uid.system"` share 1000: `android` (framework-res), Settings,
 *   SettingsProvider, FusedLocation, InputDevices, LocalTransport, WallpaperBackup,
 *   DynamicSystemInstallationService, Telecom and KeyChain (their AOSP `AndroidManifest.xml`; the
 *   same group shares one uid in a `dumpsys package` of an emulator). TeleService and
 *   TelephonyProvider share `android.uid.phone` (1001), Shell is `android.uid.shell` (2000).
 * - Platform apps built without a version take the platform's: versionCode = the SDK level (34),
 *   versionName = `PLATFORM_VERSION` (`build/make/core/config.mk` `APPS_DEFAULT_VERSION_NAME`).
 */
import {createHash} from 'node:crypto';

/** One package the package manager knows. */
export interface PackageSeed {
  name: string;
  /** The base APK (`pm path`, `pm list packages -f`). */
  path: string;
  system: boolean;
  uid: number;
  versionCode: number;
  versionName: string;
  /** `null` for preinstalled and sideloaded apps (`pm list packages -i` prints `installer=null`). */
  installer: string | null;
  enabled: boolean;
  /** The launcher activity (`am start -n`, `monkey -p`), as `package/class`. */
  launcher?: string;
  /** Split APKs installed beside `base.apk` as `split_NAME.apk` (an app installed from an app bundle). */
  splits?: readonly string[];
  /**
   * A system app (`system: true`) that Google Play has updated (`FLAG_UPDATED_SYSTEM_APP`). Its
   * `path` is then the update's `/data/app/~~…==/<package>-…==/base.apk`, which `pm path` and
   * `pm list packages -f` print, its `installer` the Play Store, and `systemPath` the APK on the
   * read-only partition that the package manager keeps hidden (`dumpsys package`'s "Hidden system
   * packages"). `pm uninstall PACKAGE` (no `--user`) removes the update and the app goes back to
   * `systemPath`; without `updated` that command fails with `DELETE_FAILED_INTERNAL_ERROR`.
   */
  updated?: boolean;
  /** The factory APK of an `updated` system app, on a read-only partition (for Chrome, its stub). */
  systemPath?: string;
  /**
   * The compressed full APK (`<Dir>/<Dir>.apk.gz`, gzip) of a system app shipped as a `-Stub` APK
   * (`systemPath`) beside it: what the package manager decompresses into `/data/app`.
   */
  compressedPath?: string;
}

/**
 * URL-safe base64 of 16 bytes derived from `seed`: the stand-in for the random parts of an
 * installed app's code path, fixed so outputs are stable.
 */
export function codePathToken(seed: string): string {
  return createHash('md5').update(seed).digest('base64').replace(/\+/g, '-').replace(/\//g, '_');
}

/** `/data/app/~~TOKEN==/PACKAGE-TOKEN==/base.apk` for an app installed on the device. */
export function dataAppPath(packageName: string, generation = 0): string {
  return `/data/app/~~${codePathToken(`dir:${packageName}:${generation}`)}/${packageName}-${codePathToken(`pkg:${packageName}:${generation}`)}/base.apk`;
}

const system = (
  name: string,
  path: string,
  uid: number,
  versionCode: number,
  versionName: string,
  launcher?: string,
  enabled = true,
): PackageSeed => ({name, path, system: true, uid, versionCode, versionName, installer: null, enabled, launcher});

/**
 * A system app that Google Play updated: the factory APK stays at `systemPath` (a stub, with
 * `compressedPath`, for a compressed app) and the package runs from a `/data/app` folder, installed
 * by the Play Store.
 */
const updatedSystem = (
  name: string,
  systemPath: string,
  uid: number,
  versionCode: number,
  versionName: string,
  launcher: string,
  compressedPath?: string,
): PackageSeed => ({
  ...system(name, dataAppPath(name), uid, versionCode, versionName, launcher),
  installer: 'com.android.vending',
  updated: true,
  systemPath,
  ...(compressedPath ? {compressedPath} : {}),
});

const user = (
  name: string,
  uid: number,
  versionCode: number,
  versionName: string,
  installer: string | null,
  launcher: string,
  splits?: readonly string[],
): PackageSeed => ({
  ...(splits ? {splits} : {}),
  name,
  path: dataAppPath(name),
  system: false,
  uid,
  versionCode,
  versionName,
  installer,
  enabled: true,
  launcher,
});

/**
 * The packages of a fresh device, in the (unsorted) order `pm list packages` prints them. Chrome
 * and YouTube, which the samples use (`pm resolve-activity` answers Chrome; `pm uninstall` of
 * YouTube removes its update), are updated from Google Play (`updated`).
 */
export const SEEDED_PACKAGES: readonly PackageSeed[] = [
  system('com.google.android.networkstack', '/system/priv-app/NetworkStackGoogle/NetworkStackGoogle.apk', 1073, 340911000, '34 (UQ1A)'),
  system('com.android.providers.telephony', '/system/priv-app/TelephonyProvider/TelephonyProvider.apk', 1001, 34, '14'),
  system(
    'com.google.android.apps.nexuslauncher',
    '/system_ext/priv-app/NexusLauncherRelease/NexusLauncherRelease.apk',
    10180,
    34,
    '14',
    'com.google.android.apps.nexuslauncher/.NexusLauncherActivity',
  ),
  system('com.android.providers.calendar', '/system/priv-app/CalendarProvider/CalendarProvider.apk', 10121, 34, '14'),
  // In the MediaProvider APEX; the folder's `@` suffix is the module's version (here its versionCode, which no source gives for this build).
  system(
    'com.google.android.providers.media.module',
    '/apex/com.android.mediaprovider/priv-app/MediaProviderGoogle@340912020/MediaProviderGoogle.apk',
    10185,
    340912020,
    '2023-12',
  ),
  system('com.android.shell', '/system/priv-app/Shell/Shell.apk', 2000, 34, '14'),
  system('com.android.systemui', '/system_ext/priv-app/SystemUIGoogle/SystemUIGoogle.apk', 10171, 34, '14'),
  system(
    'com.google.android.gms',
    '/product/priv-app/PrebuiltGmsCore/PrebuiltGmsCoreSc.apk',
    10151,
    240615037,
    '24.06.15 (190400-606943573)',
  ),
  system(
    'com.android.settings',
    '/system_ext/priv-app/SettingsGoogle/SettingsGoogle.apk',
    1000,
    34,
    '14',
    'com.android.settings/.Settings',
  ),
  system('android', '/system/framework/framework-res.apk', 1000, 34, '14'),
  system('com.android.phone', '/system/priv-app/TeleService/TeleService.apk', 1001, 34, '14'),
  system('com.android.providers.settings', '/system/priv-app/SettingsProvider/SettingsProvider.apk', 1000, 34, '14'),
  system('com.android.location.fused', '/system/priv-app/FusedLocation/FusedLocation.apk', 1000, 34, '14'),
  system('com.android.inputdevices', '/system/priv-app/InputDevices/InputDevices.apk', 1000, 34, '14'),
  system('com.android.localtransport', '/system/priv-app/LocalTransport/LocalTransport.apk', 1000, 34, '14'),
  system('com.android.wallpaperbackup', '/system/app/WallpaperBackup/WallpaperBackup.apk', 1000, 34, '14'),
  system('com.android.dynsystem', '/system/priv-app/DynamicSystemInstallationService/DynamicSystemInstallationService.apk', 1000, 34, '14'),
  system('com.android.server.telecom', '/system/priv-app/Telecom/Telecom.apk', 1000, 34, '14'),
  system('com.android.keychain', '/system/app/KeyChain/KeyChain.apk', 1000, 34, '14'),
  updatedSystem(
    'com.android.chrome',
    '/product/app/Chrome-Stub/Chrome-Stub.apk',
    10160,
    612207233,
    '121.0.6167.178',
    'com.android.chrome/com.google.android.apps.chrome.Main',
    '/product/app/Chrome/Chrome.apk.gz',
  ),
  system(
    'com.google.android.dialer',
    '/product/priv-app/GoogleDialer/GoogleDialer.apk',
    10165,
    12345678,
    '121.0.604473223',
    'com.google.android.dialer/.extensions.GoogleDialtactsActivity',
  ),
  system(
    'com.google.android.apps.messaging',
    '/product/priv-app/PrebuiltBugle/PrebuiltBugle.apk',
    10166,
    210130186,
    'messages.android_20240122_00_RC00',
    'com.google.android.apps.messaging/.ui.ConversationListActivity',
  ),
  system(
    'com.google.android.calculator',
    '/product/app/CalculatorGooglePrebuilt/CalculatorGooglePrebuilt.apk',
    10168,
    83010072,
    '8.3 (572339386)',
    'com.google.android.calculator/com.android.calculator2.Calculator',
  ),
  system(
    'com.google.android.GoogleCamera',
    '/product/priv-app/GoogleCamera/GoogleCamera.apk',
    10170,
    65199001,
    '9.2.113.604778888.20',
    'com.google.android.GoogleCamera/com.android.camera.CameraLauncher',
  ),
  system(
    'com.android.vending',
    '/product/priv-app/Phonesky/Phonesky.apk',
    10152,
    83981410,
    '39.8.14-21 [0] [PR] 603442813',
    'com.android.vending/.AssetBrowserActivity',
  ),
  system(
    'com.google.android.apps.photos',
    '/product/app/Photos/Photos.apk',
    10167,
    48261233,
    '6.70.0.603941434',
    'com.google.android.apps.photos/.home.HomeActivity',
  ),
  updatedSystem(
    'com.google.android.youtube',
    '/product/app/YouTube/YouTube.apk',
    10169,
    1543640768,
    '19.05.36',
    'com.google.android.youtube/com.google.android.apps.youtube.app.watchwhile.WatchWhileActivity',
  ),
  system(
    'com.android.documentsui',
    '/system/priv-app/DocumentsUIGoogle/DocumentsUIGoogle.apk',
    10130,
    340910000,
    '14',
    'com.android.documentsui/.files.FilesActivity',
  ),
  system('com.google.android.packageinstaller', '/system/priv-app/GooglePackageInstaller/GooglePackageInstaller.apk', 10131, 34, '14'),
  system(
    'com.google.android.inputmethod.latin',
    '/product/app/LatinIMEGooglePrebuilt/LatinIMEGooglePrebuilt.apk',
    10172,
    141217540,
    '14.1.04.605839443-release-arm64-v8a',
  ),
  system('com.google.android.apps.tips', '/product/priv-app/TipsPrebuilt/TipsPrebuilt.apk', 10178, 420000, '4.2', undefined, false),
  user('org.mozilla.firefox', 10211, 2016003487, '122.1.0', 'com.android.vending', 'org.mozilla.firefox/.App'),
  user('com.whatsapp', 10212, 240408076, '2.24.4.76', 'com.android.vending', 'com.whatsapp/.Main'),
  // Installed from Google Play as an app bundle: the base APK and three configuration splits.
  user('com.spotify.music', 10213, 118045470, '8.9.18.512', 'com.android.vending', 'com.spotify.music/.MainActivity', [
    'config.arm64_v8a',
    'config.en',
    'config.xxhdpi',
  ]),
  user('org.fdroid.fdroid', 10214, 1019050, '1.19.0', null, 'org.fdroid.fdroid/.views.main.MainActivity'),
  user('com.termux', 10215, 118, '0.118.0', 'org.fdroid.fdroid', 'com.termux/.app.TermuxActivity'),
];
