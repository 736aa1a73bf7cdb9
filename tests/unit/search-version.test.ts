import {test} from 'node:test';
import assert from 'node:assert/strict';
import {checkSearchVersion} from '../../src/theme/SearchPage/searchVersion.ts';

const versions = [
  {label: '2.0.0', isLast: true, path: '/'},
  {label: '1.1.0', isLast: false, path: '/1.1.0'},
  {label: '0.0.24', isLast: false, path: '/0.0.24'},
];

test('no parameter and the parameters the search bar writes are accepted', () => {
  assert.deepEqual(checkSearchVersion(null, versions), {kind: 'ok'});
  assert.deepEqual(checkSearchVersion('', versions), {kind: 'ok'});
  assert.deepEqual(checkSearchVersion('1.1.0/', versions), {kind: 'ok'});
  assert.deepEqual(checkSearchVersion('0.0.24/', versions), {kind: 'ok'});
});

test('anything else is unknown, with every version offered', () => {
  for (const bad of ['../x', '9.9.9', '1.1.0', '9.9.9/', '/', '//evil.example/', '2.0.0/', '<script>']) {
    const result = checkSearchVersion(bad, versions);
    assert.equal(result.kind, 'unknown', bad);
    assert.deepEqual(result.kind === 'unknown' && result.known, [
      {label: '2.0.0', version: null},
      {label: '1.1.0', version: '1.1.0/'},
      {label: '0.0.24', version: '0.0.24/'},
    ]);
  }
});
