import {test} from 'node:test';
import assert from 'node:assert/strict';
import {readFileSync, existsSync} from 'node:fs';
import path from 'node:path';
import {docsVersions} from '../../src/versions/index.ts';
import {compareVersions} from '../../src/utils/versions.ts';

/** Category labels and positions of the current version, from ../shared/spec/pages.md §2. */
const CATEGORIES: Record<string, {label?: string; position: number; collapsed?: boolean}> = {
  'api/adb': {label: 'Adb', position: 1, collapsed: false},
  'api/server': {label: 'AdbServer', position: 2},
  'api/bin': {label: 'Executable Wrappers', position: 3},
  'api/adb/reverse': {position: 5, collapsed: true},
  'api/adb/sync': {position: 7, collapsed: true},
  'tango/web-stream': {label: 'Web Streams', position: 2},
  'tango/daemon': {label: 'Daemon Transport', position: 4},
  'tango/daemon/usb': {label: 'USB connection', position: 1},
  'tango/daemon/tcp': {label: 'TCP connection', position: 2},
  'tango/server': {label: 'Server Transport', position: 5},
  'tango/custom-transport': {label: 'Custom Transport', position: 6},
  'scrcpy/options': {position: 5},
  'scrcpy/video': {position: 8},
  'scrcpy/control': {position: 9},
};
/** Categories that the library's later versions added: the first version whose docs have each. */
const SINCE: Record<string, string> = {
  'api/adb/subprocess': '2.0.0',
  'tango/custom-transport/server-client': '1.1.0',
};
/** Each docs folder of the site (src/versions/index.ts) and the library version it documents. */
const FOLDERS = docsVersions();
const root = path.resolve(import.meta.dirname ?? __dirname, '../..');

function readCategory(folder: string, dir: string): string | undefined {
  const file = path.join(root, folder, dir, '_category_.yml');
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
}

test('every version has the categories of pages.md with their labels and positions', () => {
  for (const {version, folder} of FOLDERS) {
    for (const [dir, expected] of Object.entries(CATEGORIES)) {
      const yml = readCategory(folder, dir);
      assert.ok(yml, `${version} ${dir}/_category_.yml`);
      // The android-bin wrappers were labelled by package name before 1.1.0.
      const label = dir === 'api/bin' && compareVersions(version, '1.1.0') < 0 ? 'android-bin' : expected.label;
      if (label) assert.match(yml, new RegExp(`^label: "${label}"$`, 'm'), `${version} ${dir}`);
      assert.match(yml, new RegExp(`^position: ${expected.position}$`, 'm'), `${version} ${dir}`);
      if (expected.collapsed !== undefined) assert.match(yml, new RegExp(`^collapsed: ${expected.collapsed}$`, 'm'));
    }
    for (const [dir, since] of Object.entries(SINCE)) {
      assert.equal(readCategory(folder, dir) !== undefined, compareVersions(version, since) >= 0, `${version} ${dir}`);
    }
  }
});

test('the TCP connection category is a generated index at /category/tcp-connection in every version', () => {
  for (const {folder} of FOLDERS) {
    assert.match(
      readCategory(folder, 'tango/daemon/tcp')!,
      /link:\n {2}type: generated-index\n {2}slug: \/category\/tcp-connection\n/,
      folder,
    );
  }
});
