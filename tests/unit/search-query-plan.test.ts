import {test} from 'node:test';
import assert from 'node:assert/strict';
import {knownTokens, trimToken} from '../../src/search/queryPlan.ts';

const vocabulary = new Set(['connect', 'adb', 'emulator', 'wifi']);
const isKnown = (token: string, typing: boolean) =>
  vocabulary.has(token) || (typing && [...vocabulary].some((word) => word.startsWith(token)));

test('words no page uses are left out, the others kept in order', () => {
  assert.deepEqual(knownTokens(['connect', 'bluestacks', 'adb'], isKnown), ['connect', 'adb']);
  assert.deepEqual(knownTokens(['vanilla', 'emulator'], isKnown), ['emulator']);
  assert.deepEqual(knownTokens(['bluestacks'], isKnown), []);
  assert.deepEqual(knownTokens([], isKnown), []);
});

test('only the last word may be unfinished', () => {
  assert.deepEqual(knownTokens(['adb', 'emu'], isKnown), ['adb', 'emu']);
  assert.deepEqual(knownTokens(['emu', 'adb'], isKnown), ['adb']);
});

test('punctuation around a word is trimmed, as the index stores words', () => {
  assert.equal(trimToken("'usb':"), 'usb');
  assert.equal(trimToken('(41);'), '41');
  assert.equal(trimToken('killing...'), 'killing');
  assert.equal(trimToken('navigator.usb'), 'navigator.usb');
  assert.equal(trimToken('...'), '');
  assert.deepEqual(knownTokens(["'connect'", '(adb);'], isKnown), ['connect', 'adb']);
});

test('an unknown dotted or bracketed token is replaced by its known parts', () => {
  assert.deepEqual(knownTokens(['adb.connect()'], isKnown), ['adb', 'connect']);
  assert.deepEqual(knownTokens(['bluestacks.adb'], isKnown), ['adb']);
});

test('a word is kept once', () => {
  assert.deepEqual(knownTokens(['adb', 'wifi', 'adb'], isKnown), ['adb', 'wifi']);
});

test('a last word followed by punctuation is finished, not being typed', () => {
  assert.deepEqual(knownTokens(['adb', 'emu'], isKnown), ['adb', 'emu']);
  assert.deepEqual(knownTokens(['adb', 'emu.'], isKnown), ['adb']);
});
