import {test} from 'node:test';
import assert from 'node:assert/strict';
import {MAX_QUERY_LENGTH, shortenQuery} from '../../src/theme/SearchPage/searchQuery.ts';

test('a query within the limit is kept as it is', () => {
  assert.equal(shortenQuery(''), '');
  assert.equal(shortenQuery('adb transport'), 'adb transport');
  assert.equal(shortenQuery('x'.repeat(MAX_QUERY_LENGTH)), 'x'.repeat(MAX_QUERY_LENGTH));
});

test('a longer query is cut to the limit', () => {
  assert.equal(shortenQuery('x'.repeat(100_000)), 'x'.repeat(MAX_QUERY_LENGTH));
  assert.equal(shortenQuery('abcdef', 4), 'abcd');
});

test('the cut never splits a surrogate pair', () => {
  // '😀' is two UTF-16 code units: a cut after its first half drops the whole character.
  assert.equal(shortenQuery('abc😀def', 4), 'abc');
  assert.equal(shortenQuery('abc😀def', 5), 'abc😀');
  assert.doesNotThrow(() => encodeURIComponent(shortenQuery('😀'.repeat(150))));
});
