import assert from 'node:assert/strict';
import {describe, test} from 'node:test';

import {renderToStaticMarkup} from 'react-dom/server';

import DiffTable from '../../src/components/DiffTable/index.tsx';

describe('<DiffTable>', () => {
  test('renders the two children under their headings, before first', () => {
    const html = renderToStaticMarkup(
      <DiffTable before="1.1.0" after="2.0.0">
        <pre>old code</pre>
        <pre>new code</pre>
      </DiffTable>,
    );
    assert.equal(
      html,
      '<div class="diffTable">' +
        '<figure class="column"><figcaption class="heading">1.1.0</figcaption><pre>old code</pre></figure>' +
        '<figure class="column"><figcaption class="heading">2.0.0</figcaption><pre>new code</pre></figure>' +
        '</div>',
    );
  });

  test('ignores whitespace text between the children, as MDX may insert', () => {
    const html = renderToStaticMarkup(
      <DiffTable before="Before" after="After">
        {'\n'}
        <pre>a</pre>
        {'  \n  '}
        <pre>b</pre>
        {'\n'}
      </DiffTable>,
    );
    assert.match(html, /Before<\/figcaption><pre>a<\/pre>/);
    assert.match(html, /After<\/figcaption><pre>b<\/pre>/);
  });

  test('throws with one child', () => {
    assert.throws(
      () =>
        renderToStaticMarkup(
          <DiffTable before="1.1.0" after="2.0.0">
            <pre>only</pre>
          </DiffTable>,
        ),
      /needs exactly two children .* got 1/,
    );
  });

  test('throws with three children', () => {
    assert.throws(
      () =>
        renderToStaticMarkup(
          <DiffTable before="1.1.0" after="2.0.0">
            <pre>a</pre>
            <pre>b</pre>
            <pre>c</pre>
          </DiffTable>,
        ),
      /got 3/,
    );
  });

  test('throws with no children', () => {
    assert.throws(() => renderToStaticMarkup(<DiffTable before="1.1.0" after="2.0.0" />), /got 0/);
  });

  test('throws when a heading is empty', () => {
    assert.throws(
      () =>
        renderToStaticMarkup(
          <DiffTable before="" after="2.0.0">
            <pre>a</pre>
            <pre>b</pre>
          </DiffTable>,
        ),
      /non-empty `before` and `after`/,
    );
  });
});
