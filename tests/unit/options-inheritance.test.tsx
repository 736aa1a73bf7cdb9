import assert from 'node:assert/strict';
import {describe, test} from 'node:test';

import {renderToStaticMarkup} from 'react-dom/server';

import OptionsInheritance, {
  cellHighlight,
  describeCell,
  describeMember,
  describePosition,
  describeVersion,
  moveFocus,
  type OptionsInheritanceData,
} from '../../src/components/OptionsInheritance/index.tsx';

/** A small grid in the shape the remark plugin produces. */
const data: OptionsInheritanceData = {
  packageName: '@yume-chan/scrcpy',
  packageVersion: '2.0.1',
  methods: ['clipboard', 'serialize', 'parseAudioStreamMetadata'],
  getters: ['clipboard'],
  versions: [
    {
      version: '1.15',
      className: 'ScrcpyOptions1_15',
      cells: [{from: '1.15', inherited: false}, {from: '1.15', inherited: false}, null],
    },
    {
      version: '1.15.1',
      className: 'ScrcpyOptions1_15_1',
      extends: 'ScrcpyOptions1_15',
      cells: [{from: '1.15', inherited: true}, {from: '1.15', inherited: true}, null],
    },
    {
      version: '2.0',
      className: 'ScrcpyOptions2_0',
      cells: [
        {from: '1.15', inherited: false},
        {from: '2.0', inherited: false},
        {from: '2.0', inherited: false},
      ],
    },
  ],
};

describe('<OptionsInheritance> server render', () => {
  const html = renderToStaticMarkup(<OptionsInheritance data={data} />);

  test('renders a labelled, described grid with one header per member', () => {
    assert.match(html, /<table role="grid" aria-readonly="true" aria-labelledby="[^"]+-legend" aria-describedby="[^"]+-summary"/);
    const headers = [...html.matchAll(/<th scope="col"[^>]*data-col="(\d+)"[^>]*><span class="memberName"><code>([^<]+)<\/code>/g)];
    assert.deepEqual(
      headers.map((match) => match[2]),
      ['get clipboard', 'serialize', 'parseAudioStreamMetadata'],
    );
  });

  test('has exactly one tab stop, on the first member header', () => {
    const stops = [...html.matchAll(/tabindex="0"/g)];
    assert.equal(stops.length, 1);
    assert.match(html, /data-row="-1" data-col="0" tabindex="0"/);
  });

  test('marks own, inherited and missing cells in text, not only by style', () => {
    assert.match(html, /class="cell own"[^>]*>2\.0<span class="tango-visually-hidden"> \(own implementation\)<\/span>/);
    assert.match(
      html,
      /class="cell inherited"[^>]*><span aria-hidden="true" class="arrow">↑<\/span>1\.15<span class="tango-visually-hidden"> \(inherited from ScrcpyOptions1_15\)<\/span>/,
    );
    assert.match(html, /class="cell missing"[^>]*>—<span class="tango-visually-hidden"> \(not available\)<\/span>/);
    assert.match(html, /class="cell"[^>]*>1\.15<span class="tango-visually-hidden"> \(shared implementation\)<\/span>/);
  });

  test('shows the usage hint in a polite live region, with nothing highlighted', () => {
    assert.match(html, /<p id="[^"]+-summary" class="summary" aria-live="polite">Hover over or focus/);
    assert.doesNotMatch(html, /class="[^"]*\b(related|override|shared|source|activeCell|activeHeader)\b/);
  });

  test('renders the same markup twice (no state from the environment)', () => {
    assert.equal(renderToStaticMarkup(<OptionsInheritance data={data} />), html);
  });

  test('throws a clear error without data', () => {
    assert.throws(() => renderToStaticMarkup(<OptionsInheritance />), /register src\/remark\/scrcpy-inheritance\.ts/);
  });
});

describe('<OptionsInheritance> with the 0.0.24 delegation layout', () => {
  const delegating: OptionsInheritanceData = {
    ...data,
    packageVersion: '0.0.24',
    versions: [
      {...data.versions[0], version: '1.16', className: 'ScrcpyOptions1_16'},
      {
        version: '1.17',
        className: 'ScrcpyOptions1_17',
        delegatesTo: 'ScrcpyOptions1_16',
        cells: [{from: '1.16', inherited: true}, {from: '1.17', inherited: false}, null],
      },
    ],
  };
  const html = renderToStaticMarkup(<OptionsInheritance data={delegating} />);

  test('the legend and the cells say forwarded, not extends', () => {
    assert.match(html, /↑<\/span>: forwarded to the instance of the older class/);
    assert.doesNotMatch(html, /inherited through/);
    assert.match(html, /↑<\/span>1\.16<span class="tango-visually-hidden"> \(forwarded to ScrcpyOptions1_16\)<\/span>/);
  });

  test('the descriptions say forwarded', () => {
    assert.equal(
      describeCell(delegating, 1, 0),
      'ScrcpyOptions1_17.clipboard uses the implementation from 1.16 (ScrcpyOptions1_16) (forwarded to ScrcpyOptions1_16).',
    );
    assert.equal(
      describeVersion(delegating, 1),
      'ScrcpyOptions1_17 defines 1 of its 2 members anew: serialize. It forwards the others to a ScrcpyOptions1_16.',
    );
  });
});

describe('descriptions', () => {
  test('describeMember lists where the member is defined anew', () => {
    assert.equal(describeMember(data, 1), 'serialize is defined anew in 1.15 and 2.0; 3 of 3 version classes have it.');
    assert.equal(describeMember(data, 2), 'parseAudioStreamMetadata is defined anew in 2.0; 1 of 3 version classes have it.');
    assert.equal(describeMember(data, 9), '');
  });

  test('describeCell says which implementation a cell uses', () => {
    assert.equal(describeCell(data, 2, 1), 'ScrcpyOptions2_0.serialize defines its own implementation.');
    assert.equal(describeCell(data, 2, 0), 'ScrcpyOptions2_0.clipboard uses the implementation from 1.15 (ScrcpyOptions1_15).');
    assert.equal(
      describeCell(data, 1, 1),
      'ScrcpyOptions1_15_1.serialize uses the implementation from 1.15 (ScrcpyOptions1_15) (inherited from ScrcpyOptions1_15).',
    );
    assert.equal(describeCell(data, 0, 2), 'ScrcpyOptions1_15 has no parseAudioStreamMetadata.');
  });

  test('describeVersion lists the members a class defines anew', () => {
    assert.equal(describeVersion(data, 2), 'ScrcpyOptions2_0 defines 2 of its 3 members anew: serialize and parseAudioStreamMetadata.');
    assert.equal(describeVersion(data, 1), 'ScrcpyOptions1_15_1 defines none of its 2 members anew. It extends ScrcpyOptions1_15.');
  });

  test('describePosition picks the sentence for the active place', () => {
    assert.match(describePosition(data, null), /^Hover over or focus/);
    assert.equal(describePosition(data, {row: -1, col: 1}), describeMember(data, 1));
    assert.equal(describePosition(data, {row: 2, col: -1}), describeVersion(data, 2));
    assert.equal(describePosition(data, {row: 2, col: 0}), describeCell(data, 2, 0));
  });
});

describe('cellHighlight', () => {
  test('a member header highlights its column and marks the overrides', () => {
    assert.deepEqual(cellHighlight(data, {row: -1, col: 1}, 0, 1), {related: true, override: true, source: false, shared: false});
    assert.deepEqual(cellHighlight(data, {row: -1, col: 1}, 1, 1), {related: true, override: false, source: false, shared: false});
    assert.equal(cellHighlight(data, {row: -1, col: 1}, 0, 0).related, false);
  });

  test('a cell highlights the implementation it uses and the cells sharing it', () => {
    const active = {row: 2, col: 0};
    assert.deepEqual(cellHighlight(data, active, 0, 0), {related: true, override: true, source: true, shared: true});
    assert.deepEqual(cellHighlight(data, active, 1, 0), {related: true, override: false, source: false, shared: true});
  });

  test('a version header highlights its row', () => {
    assert.equal(cellHighlight(data, {row: 2, col: -1}, 2, 2).override, true);
    assert.equal(cellHighlight(data, {row: 2, col: -1}, 1, 2).related, false);
  });

  test('nothing is highlighted when nothing is active', () => {
    assert.deepEqual(cellHighlight(data, null, 0, 0), {related: false, override: false, source: false, shared: false});
  });
});

describe('moveFocus', () => {
  test('arrow keys move one step and stop at the edges', () => {
    assert.deepEqual(moveFocus({row: 0, col: 0}, 'ArrowDown', 3, 3), {row: 1, col: 0});
    assert.deepEqual(moveFocus({row: 2, col: 2}, 'ArrowDown', 3, 3), {row: 2, col: 2});
    assert.deepEqual(moveFocus({row: 2, col: 2}, 'ArrowRight', 3, 3), {row: 2, col: 2});
    assert.deepEqual(moveFocus({row: 0, col: 0}, 'ArrowLeft', 3, 3), {row: 0, col: -1});
    assert.deepEqual(moveFocus({row: 0, col: 1}, 'ArrowUp', 3, 3), {row: -1, col: 1});
  });

  test('never lands on the empty corner', () => {
    assert.deepEqual(moveFocus({row: -1, col: 0}, 'ArrowLeft', 3, 3), {row: -1, col: 0});
    assert.deepEqual(moveFocus({row: 0, col: -1}, 'ArrowUp', 3, 3), {row: 0, col: -1});
  });

  test('Home and End jump within the row; other keys are not handled', () => {
    assert.deepEqual(moveFocus({row: 1, col: 2}, 'Home', 3, 3), {row: 1, col: -1});
    assert.deepEqual(moveFocus({row: -1, col: 2}, 'Home', 3, 3), {row: -1, col: 0});
    assert.deepEqual(moveFocus({row: 1, col: 0}, 'End', 3, 3), {row: 1, col: 2});
    assert.equal(moveFocus({row: 1, col: 0}, 'a', 3, 3), null);
  });
});
