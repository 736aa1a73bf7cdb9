import {test} from 'node:test';
import assert from 'node:assert/strict';
import {findDocsElsewhere, type VersionDocs} from '../../src/theme/NotFound/Content/findDocsElsewhere.ts';

const doc = (path: string) => ({id: path, path});
const versions: VersionDocs[] = [
  {
    name: 'current',
    label: '2.0.0',
    isLast: true,
    path: '/',
    docs: [
      doc('/'),
      doc('/api/adb/subprocess/'),
      doc('/api/adb/subprocess/none-protocol/'),
      doc('/api/adb/subprocess/shell-protocol/'),
      doc('/api/bin/logcat/binary/'),
      doc('/api/bin/logcat/clear/'),
    ],
  },
  {
    name: '1.1.0',
    label: '1.1.0',
    isLast: false,
    path: '/1.1.0',
    docs: [doc('/1.1.0/'), doc('/1.1.0/api/adb/subprocess/'), doc('/1.1.0/api/bin/logcat/binary/'), doc('/1.1.0/api/bin/logcat/clear/')],
  },
  {
    name: '1.0.0',
    label: '1.0.0',
    isLast: false,
    path: '/1.0.0',
    docs: [doc('/1.0.0/'), doc('/1.0.0/api/adb/subprocess/'), doc('/1.0.0/api/bin/logcat/')],
  },
];

test('a page that exists only in an older version is found there', () => {
  assert.deepEqual(findDocsElsewhere('/api/bin/logcat/', versions), [
    {path: '/api/bin/logcat/binary/', versionLabel: '2.0.0'},
    {path: '/api/bin/logcat/clear/', versionLabel: '2.0.0'},
    {path: '/1.1.0/api/bin/logcat/binary/', versionLabel: '1.1.0'},
    {path: '/1.1.0/api/bin/logcat/clear/', versionLabel: '1.1.0'},
    {path: '/1.0.0/api/bin/logcat/', versionLabel: '1.0.0'},
  ]);
});

test('a page added in the latest version is offered from an older version path', () => {
  assert.deepEqual(findDocsElsewhere('/1.1.0/api/adb/subprocess/none-protocol', versions), [
    {path: '/api/adb/subprocess/none-protocol/', versionLabel: '2.0.0'},
  ]);
});

test('.html and index.html suffixes are ignored', () => {
  assert.deepEqual(
    findDocsElsewhere('/1.0.0/api/adb/subprocess/shell-protocol.html', versions).map((d) => d.path),
    ['/api/adb/subprocess/shell-protocol/'],
  );
});

test('unknown paths, the root and missing data give nothing', () => {
  assert.deepEqual(findDocsElsewhere('/no/such/page/', versions), []);
  assert.deepEqual(findDocsElsewhere('/', versions), []);
  assert.deepEqual(findDocsElsewhere('/1.1.0/', versions), []);
  assert.deepEqual(findDocsElsewhere('/api/', undefined), []);
});
