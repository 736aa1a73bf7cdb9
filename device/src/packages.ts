/**
 * The apps installed on the simulated Pixel 7 (Android 14) at first boot: system apps from the
 * read-only partitions and a few apps the user installed, with the paths, uids, installers and
 * launcher activities the package manager reports for them.
 *
 * Facts: code paths follow `PackageManagerService` conventions: system apps in
 * `/system/app`, `/system/priv-app`, `/system_ext/priv-app`, `/product/app`, `/product/priv-app`
 * (`<Dir>/<Name>.apk`); apps installed later in `/data/app/~~<random>==/<package>-<random>==/base.apk`
 * (Android 11 and later, `PackageManagerServiceUtils.getNextCodePath`: two random 16-byte values,
 * URL-safe base64). App uids start at 10000 (`Process.FIRST_APPLICATION_UID`); `system` shares 1000.
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

/** The packages of a fresh device, in the (unsorted) order `pm list packages` prints them. */
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
  system(
    'com.google.android.providers.media.module',
    '/system/priv-app/MediaProviderGoogle/MediaProviderGoogle.apk',
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
  system(
    'com.android.chrome',
    '/product/app/Chrome/Chrome.apk',
    10160,
    612207233,
    '121.0.6167.178',
    'com.android.chrome/com.google.android.apps.chrome.Main',
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
    '/product/app/PrebuiltBugle/PrebuiltBugle.apk',
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
    '/product/app/GoogleCamera/GoogleCamera.apk',
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
  system(
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
  system('com.google.android.apps.tips', '/product/app/TipsPrebuilt/TipsPrebuilt.apk', 10178, 420000, '4.2', undefined, false),
  system('com.android.bluetooth', '/system/app/Bluetooth/Bluetooth.apk', 1002, 34, '14'),
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
