import assert from 'node:assert/strict';
import {test} from 'node:test';

import {dataPackageFor, docsVersionOfFile, packageDirOf} from '../../src/remark/docs-version.ts';
import {CURRENT_VERSION} from '../../src/versions/index.ts';

test('a page path tells its docs version', () => {
  assert.equal(docsVersionOfFile('/work/site/docs/api/index.mdx'), CURRENT_VERSION);
  assert.equal(docsVersionOfFile('/work/site/versioned_docs/version-1.1.0/scrcpy/versions.mdx'), '1.1.0');
  assert.equal(docsVersionOfFile('C:\\site\\versioned_docs\\version-0.0.24\\api\\index.mdx'), '0.0.24');
  assert.equal(docsVersionOfFile(undefined), CURRENT_VERSION);
  assert.equal(docsVersionOfFile('/work/site/versioned_docs/README.md'), CURRENT_VERSION);
});

test('each version reads its own packages, and a version without one fails loudly', () => {
  assert.equal(dataPackageFor('/s/docs/scrcpy/versions.mdx', 'scrcpy'), '@tango-v2/scrcpy');
  assert.equal(dataPackageFor('/s/versioned_docs/version-1.1.0/scrcpy/versions.mdx', 'scrcpy'), '@tango-v1/scrcpy');
  assert.equal(dataPackageFor('/s/versioned_docs/version-0.0.24/scrcpy/versions.mdx', 'adb-scrcpy'), '@tango-v0/adb-scrcpy');
  assert.throws(
    () => dataPackageFor('/s/versioned_docs/version-1.0.0/scrcpy/versions.mdx', 'scrcpy'),
    /scrcpy is not published for docs version 1\.0\.0/,
  );
  assert.throws(
    () => dataPackageFor('/s/versioned_docs/version-1.1.0/api/bin/pm/install.mdx', 'android-bin'),
    /android-bin is not published for docs version 1\.1\.0/,
  );
  assert.throws(() => dataPackageFor('/s/versioned_docs/version-9.9.9/x.mdx', 'scrcpy'), /docs version 9\.9\.9/);
});

test('the alias packages are installed where the plugins look', async () => {
  const {default: manifest} = await import(`${packageDirOf('@tango-v1/scrcpy')}/package.json`, {with: {type: 'json'}});
  assert.equal((manifest as {version: string}).version, '1.1.0');
});
