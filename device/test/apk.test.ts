/**
 * The APKs of the simulated device (device/src/apk.ts): `buildApk` signs with APK Signature Scheme
 * v2 exactly as Google's apksigner does, and `apkSignatures` tells which signatures an APK
 * carries. The reference, `device/fixtures/app-release.apk`, is apksigner's output for the same
 * unsigned APK and key (`device/fixtures/make-signed-apks.sh`, which also runs `apksigner verify`).
 */
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {test} from 'node:test';

import {apkSignatures, buildApk, parseApk, signApk, zip} from '../src/apk.ts';

test("buildApk's signature is apksigner's, byte for byte", () => {
  const reference = readFileSync(new URL('../fixtures/app-release.apk', import.meta.url));
  assert.deepEqual(Buffer.from(buildApk({packageName: 'com.example.app'})), reference);
  assert.deepEqual(Buffer.from(signApk(buildApk({packageName: 'com.example.app', signed: false}))), reference);
});

test('apkSignatures: an APK Signing Block with v2 or v3, a JAR signature, or none', () => {
  const signed = buildApk({packageName: 'com.example.app'});
  assert.deepEqual(apkSignatures(signed), {jarManifest: false, v1: false, v2: true, v3: false});
  // The same block with the v3 ID (0xf05368c0) in place of v2's (0x7109871a).
  const v3 = signed.slice();
  const at = Buffer.from(v3).indexOf(Buffer.from([0x1a, 0x87, 0x09, 0x71]));
  v3.set([0xc0, 0x68, 0x53, 0xf0], at);
  assert.deepEqual(apkSignatures(v3), {jarManifest: false, v1: false, v2: false, v3: true});
  const jar = (names: string[]) => zip(names.map((name) => [name, new Uint8Array(4)] as const));
  assert.deepEqual(apkSignatures(jar(['META-INF/MANIFEST.MF', 'META-INF/CERT.SF', 'META-INF/CERT.RSA'])), {
    jarManifest: true,
    v1: true,
    v2: false,
    v3: false,
  });
  // A signature file needs its block, of the same name; a signature without the manifest is none.
  assert.equal(apkSignatures(jar(['META-INF/MANIFEST.MF', 'META-INF/CERT.SF', 'META-INF/OTHER.EC']))?.v1, false);
  assert.equal(apkSignatures(jar(['META-INF/CERT.SF', 'META-INF/CERT.DSA']))?.v1, false);
  assert.deepEqual(apkSignatures(buildApk({packageName: 'com.example.app', signed: false})), {
    jarManifest: false,
    v1: false,
    v2: false,
    v3: false,
  });
  assert.equal(apkSignatures(new TextEncoder().encode('not a zip')), undefined);
});

test('parseApk reads the SDK versions of <uses-sdk>, with their defaults', () => {
  assert.deepEqual(parseApk(buildApk({packageName: 'com.example.app', versionCode: 7, versionName: '7.0'})), {
    packageName: 'com.example.app',
    versionCode: 7,
    versionName: '7.0',
    minSdkVersion: 24,
    targetSdkVersion: 34,
  });
  const manifest = (usesSdk: string) =>
    zip([
      [
        'AndroidManifest.xml',
        new TextEncoder().encode(
          `<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.example.app">${usesSdk}</manifest>`,
        ),
      ],
    ]);
  assert.deepEqual(
    [
      manifest('<uses-sdk android:minSdkVersion="21" />'),
      manifest('<uses-sdk android:minSdkVersion="21" android:targetSdkVersion="30" />'),
      manifest(''),
    ].map((apk) => [parseApk(apk)?.minSdkVersion, parseApk(apk)?.targetSdkVersion]),
    [
      [21, 21],
      [21, 30],
      [1, 0],
    ],
  );
});
