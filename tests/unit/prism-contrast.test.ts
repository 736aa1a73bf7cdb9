import assert from 'node:assert/strict';
import {test} from 'node:test';

import {themes} from 'prism-react-renderer';

import {accessiblePrismTheme, contrastRatio, parseColor, withContrast} from '../../src/utils/prism-contrast.ts';

test('parses the colour forms prism themes use', () => {
  assert.deepEqual(parseColor('#fff'), [255, 255, 255]);
  assert.deepEqual(parseColor('#1b7f5bcc'), [27, 127, 91]);
  assert.deepEqual(parseColor('rgb(227, 17, 108)'), [227, 17, 108]);
  assert.equal(parseColor('inherit'), null);
});

test('contrast ratio follows WCAG 2.1', () => {
  assert.equal(Math.round(contrastRatio([0, 0, 0], [255, 255, 255]) * 10) / 10, 21);
  assert.equal(contrastRatio([119, 119, 119], [119, 119, 119]), 1);
  // github's comment colour on its own background: the failure this helper exists for.
  assert.ok(contrastRatio(parseColor('#999988')!, parseColor('#f6f8fa')!) < 3);
});

test('a passing colour is kept and a failing one moves just far enough', () => {
  assert.deepEqual(withContrast([0, 0, 0], [[255, 255, 255]], 4.5), [0, 0, 0]);
  const fixed = withContrast([153, 153, 136], [[246, 248, 250]], 4.5);
  assert.ok(contrastRatio(fixed, [246, 248, 250]) >= 4.5);
  assert.ok(contrastRatio(fixed, [246, 248, 250]) < 5.5, 'not darkened more than needed');
  // On a dark background the colour is lightened.
  const light = withContrast([98, 114, 164], [[40, 42, 54]], 4.5);
  assert.ok(light[0] > 98 && contrastRatio(light, [40, 42, 54]) >= 4.5);
});

test('every token of the site themes reads at 4.5:1 on the block and on highlighted lines', () => {
  for (const [theme, highlight] of [
    [themes.github, [0, 0, 0, 0.1]],
    [themes.dracula, [0, 0, 0, 0.3]],
  ] as const) {
    const fixed = accessiblePrismTheme(theme, highlight);
    const background = parseColor(fixed.plain.backgroundColor!)!;
    const a = highlight[3];
    const highlighted = background.map((c, i) => c * (1 - a) + highlight[i]! * a) as [number, number, number];
    for (const color of [fixed.plain.color, ...fixed.styles.map((entry) => entry.style.color)]) {
      const rgb = color === undefined ? null : parseColor(color);
      if (rgb === null) continue;
      assert.ok(contrastRatio(rgb, background) >= 4.5, `${color} on ${fixed.plain.backgroundColor}`);
      assert.ok(contrastRatio(rgb, highlighted) >= 4.5, `${color} on a highlighted line`);
    }
    assert.equal(fixed.styles.length, theme.styles.length);
  }
  assert.throws(() => accessiblePrismTheme({plain: {backgroundColor: 'var(--x)'}, styles: []}, [0, 0, 0, 0.1]), /not a colour/);
});
