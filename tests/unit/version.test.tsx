import assert from 'node:assert/strict';
import {describe, test} from 'node:test';

import {renderToStaticMarkup} from 'react-dom/server';

import Version, {describeVersionRange} from '../../src/components/Version/index.tsx';
import {compareVersions} from '../../src/utils/versions.ts';

describe('<Version>', () => {
  test('since renders "v2.0+" with the spelled-out label as tooltip and screen-reader text', () => {
    const html = renderToStaticMarkup(<Version since="2.0" />);
    assert.equal(
      html,
      '<span class="badge" title="Scrcpy server v2.0 and later">' +
        '<span aria-hidden="true">v2.0+</span>' +
        '<span class="tango-visually-hidden">Scrcpy server v2.0 and later</span></span>',
    );
  });

  test('until renders "until v3.0"', () => {
    const html = renderToStaticMarkup(<Version until="3.0" />);
    assert.match(html, /<span aria-hidden="true">until v3\.0<\/span>/);
    assert.match(html, /title="Scrcpy server v3\.0 and earlier"/);
  });

  test('since and until render a range', () => {
    const html = renderToStaticMarkup(<Version since="1.22" until="2.0" />);
    assert.match(html, /<span aria-hidden="true">v1\.22 – v2\.0<\/span>/);
    assert.match(html, /<span class="tango-visually-hidden">Scrcpy server v1\.22 to v2\.0<\/span>/);
  });

  test('accepts three-part versions', () => {
    assert.deepEqual(describeVersionRange({since: '2.1.1'}), {
      text: 'v2.1.1+',
      label: 'Scrcpy server v2.1.1 and later',
    });
  });

  test('throws when neither since nor until is given', () => {
    assert.throws(() => renderToStaticMarkup(<Version />), /needs a `since` or an `until` prop/);
  });

  for (const bad of ['v2.0', '2', '2.0-beta', '1.22 ', '', '2..0', '1.2.3.4']) {
    test(`throws for the malformed version ${JSON.stringify(bad)}`, () => {
      assert.throws(() => describeVersionRange({since: bad}), /is not a Scrcpy server version/);
      assert.throws(() => describeVersionRange({until: bad}), /<Version until=/);
    });
  }

  test('throws when since is later than until (numeric comparison, 1.22 > 1.3)', () => {
    assert.throws(() => describeVersionRange({since: '1.22', until: '1.3'}), /`since` is later than `until`/);
    assert.doesNotThrow(() => describeVersionRange({since: '1.3', until: '1.22'}));
    assert.doesNotThrow(() => describeVersionRange({since: '2.0', until: '2.0'}));
  });
});

describe('compareVersions', () => {
  test('compares part by part as numbers, missing parts as 0', () => {
    assert.ok(compareVersions('1.22', '1.3') > 0);
    assert.ok(compareVersions('1.3', '1.22') < 0);
    assert.equal(compareVersions('2.0', '2.0.0'), 0);
    assert.ok(compareVersions('3.1', '3.0.9') > 0);
  });
});
