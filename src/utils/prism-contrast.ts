import type {PrismTheme} from 'prism-react-renderer';

/** An sRGB colour, each channel 0-255. */
type Rgb = [number, number, number];

/** Reads `#rgb`, `#rrggbb`, `#rrggbbaa` (alpha ignored) or `rgb(r, g, b)`; other forms give `null`. */
export function parseColor(color: string): Rgb | null {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i.exec(color.trim());
  if (hex) {
    const digits = hex[1]!.length === 3 ? [...hex[1]!].map((c) => c + c) : hex[1]!.slice(0, 6).match(/../g)!;
    return digits.map((pair) => parseInt(pair, 16)) as Rgb;
  }
  const rgb = /^rgba?\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)/i.exec(color.trim());
  return rgb ? [Number(rgb[1]), Number(rgb[2]), Number(rgb[3])] : null;
}

function toHex([r, g, b]: Rgb): string {
  return `#${[r, g, b].map((channel) => Math.round(channel).toString(16).padStart(2, '0')).join('')}`;
}

/** WCAG 2.1 relative luminance of an sRGB colour (0 = black, 1 = white). */
export function luminance(color: Rgb): number {
  const [r, g, b] = color.map((channel) => {
    const c = channel / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG 2.1 contrast ratio of two colours, from 1 to 21. */
export function contrastRatio(a: Rgb, b: Rgb): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/**
 * Moves a foreground colour towards black (on a light background) or white (on a dark one), in
 * small steps, until it reaches `minimum` contrast against every background given.
 *
 * @param color The foreground.
 * @param backgrounds The backgrounds it must read on (e.g. the code block and a highlighted line).
 * @param minimum The contrast ratio to reach, e.g. 4.5 for WCAG 2.1 AA body text.
 * @returns The colour itself when it already passes, else the nearest passing step (at worst pure
 *   black or white).
 */
export function withContrast(color: Rgb, backgrounds: readonly Rgb[], minimum: number): Rgb {
  const darkBackground = luminance(backgrounds[0]!) < 0.5;
  const target: Rgb = darkBackground ? [255, 255, 255] : [0, 0, 0];
  for (let step = 0; step <= 50; step += 1) {
    const t = step / 50;
    const candidate = color.map((channel, i) => channel + (target[i]! - channel) * t) as Rgb;
    if (backgrounds.every((background) => contrastRatio(candidate, background) >= minimum)) return candidate;
  }
  return target;
}

/**
 * Returns a copy of a prism-react-renderer theme in which every token colour, and the plain text
 * colour, reads at WCAG 2.1 AA (4.5:1 by default) on the code background and on highlighted lines.
 * The themes that ship with prism-react-renderer 2.4 miss it (github: comments 2.7:1, keywords
 * 2.7:1; dracula: comments 3.0:1), which axe-core reports as serious violations.
 *
 * @param theme A theme from `prism-react-renderer`'s `themes`.
 * @param highlight The highlighted-line background laid over the code background, as
 *   `[r, g, b, alpha]` (the site's `--docusaurus-highlighted-code-line-bg`).
 * @param minimum The contrast ratio to reach.
 * @returns A new theme; colours it cannot parse are left as they are. Errors: throws when the
 *   theme's background colour cannot be parsed, since no contrast can be computed then.
 */
export function accessiblePrismTheme(theme: PrismTheme, highlight: readonly [number, number, number, number], minimum = 4.5): PrismTheme {
  const background = parseColor(theme.plain.backgroundColor ?? '');
  if (background === null) throw new Error(`prism theme background "${theme.plain.backgroundColor}" is not a colour this helper reads`);
  const alpha = highlight[3];
  const highlighted = background.map((channel, i) => channel * (1 - alpha) + highlight[i]! * alpha) as Rgb;
  const fix = (color: string | undefined) => {
    const parsed = color === undefined ? null : parseColor(color);
    return parsed === null ? color : toHex(withContrast(parsed, [background, highlighted], minimum));
  };
  return {
    plain: {...theme.plain, color: fix(theme.plain.color)},
    styles: theme.styles.map((entry) => ({...entry, style: {...entry.style, color: fix(entry.style.color)}})),
  };
}
