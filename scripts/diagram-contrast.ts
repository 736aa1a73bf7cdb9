/**
 * Text contrast inside a drawn diagram, measured in the browser (shared by scripts/render-diagrams.ts,
 * which refuses to write a drawing that fails, and by the browser tests, which check every committed
 * drawing). axe cannot see into an image, so this is the diagrams' colour-contrast check.
 */

/** Page background of each colour mode (Infima's `--ifm-background-color`): what a drawing shows on. */
export const DIAGRAM_BACKGROUNDS = {light: '#ffffff', dark: '#1b1b1d'} as const;

/** One label whose contrast is below the minimum. */
export interface LowContrast {
  /** The label's text. */
  text: string;
  /** Its fill and the colour behind it, as the browser computes them (`rgb(…)`). */
  fill: string;
  background: string;
  /** Contrast ratio (1-21), two decimals. */
  ratio: number;
}

/**
 * Runs in the page (pass it to Playwright's `page.evaluate`; it uses no outside names): puts the SVG
 * into the page on the given background and returns every label (a `<text>` or `<tspan>` that holds
 * text itself, with its own fill) whose fill has less than `minimum`:1 contrast with the filled
 * shapes under its centre (down to the first opaque one), or with the page background where no
 * shape is under it. Semi-transparent colours are composed over what is behind them.
 *
 * @param args.svg SVG text, as written to static/diagrams/.
 * @param args.background The page's background colour (CSS colour).
 * @param args.minimum The least ratio accepted (WCAG AA: 4.5).
 * @returns The labels below the minimum; empty when all pass.
 */
export function lowContrastLabels(args: {svg: string; background: string; minimum: number}): LowContrast[] {
  const host = document.createElement('div');
  host.style.cssText = `background:${args.background};display:inline-block;padding:0;margin:0`;
  host.innerHTML = args.svg;
  document.body.replaceChildren(host);
  document.body.style.margin = '0';
  document.body.style.background = args.background;

  type Rgba = [number, number, number, number];
  const probe = document.createElement('canvas').getContext('2d')!;
  const parse = (color: string): Rgba => {
    probe.fillStyle = '#000';
    probe.fillStyle = color;
    const value = String(probe.fillStyle);
    if (value.startsWith('#')) {
      return [parseInt(value.slice(1, 3), 16), parseInt(value.slice(3, 5), 16), parseInt(value.slice(5, 7), 16), 1];
    }
    const parts = value.match(/[\d.]+/g)!.map(Number);
    return [parts[0]!, parts[1]!, parts[2]!, parts[3] ?? 1];
  };
  const over = (top: Rgba, bottom: Rgba): Rgba => {
    const a = top[3];
    return [top[0] * a + bottom[0] * (1 - a), top[1] * a + bottom[1] * (1 - a), top[2] * a + bottom[2] * (1 - a), 1];
  };
  const luminance = ([r, g, b]: Rgba) => {
    const channel = (c: number) => {
      const s = c / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  };
  const page = parse(args.background);
  const shapes = new Set(['rect', 'path', 'polygon', 'circle', 'ellipse']);
  const paint = (element: Element): Rgba | undefined => {
    const style = getComputedStyle(element);
    if (style.fill === 'none' || style.visibility === 'hidden' || style.display === 'none') return undefined;
    const color = parse(style.fill);
    const alpha = color[3] * Number(style.fillOpacity || 1) * Number(style.opacity || 1);
    return alpha > 0 ? [color[0], color[1], color[2], alpha] : undefined;
  };

  const low: LowContrast[] = [];
  // Elements that hold text themselves (a `<text>`, or a `<tspan>` inside one): the fill that
  // paints the letters is theirs.
  const labels = [...host.querySelectorAll('text, tspan')].filter((element) =>
    [...element.childNodes].some((node) => node.nodeType === Node.TEXT_NODE && (node.textContent ?? '').trim() !== ''),
  );
  for (const text of labels) {
    const content = [...text.childNodes]
      .filter((node) => node.nodeType === Node.TEXT_NODE)
      .map((node) => node.textContent)
      .join('')
      .trim();
    if (content === '') continue;
    const box = text.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    const fill = paint(text);
    if (fill === undefined) continue;
    let behind: Rgba = page;
    const stack = document.elementsFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    const layers: Rgba[] = [];
    for (const element of stack) {
      if (element === text || text.contains(element)) continue;
      if (!shapes.has(element.tagName.toLowerCase())) continue;
      const color = paint(element);
      if (color !== undefined) layers.push(color);
      if (color !== undefined && color[3] >= 1) break;
    }
    for (const layer of layers.reverse()) behind = over(layer, behind);
    const front = over(fill, behind);
    const [light, dark] = [luminance(front), luminance(behind)].sort((a, b) => b - a) as [number, number];
    const ratio = Math.floor(((light + 0.05) / (dark + 0.05)) * 100) / 100;
    if (ratio < args.minimum) {
      const css = (c: Rgba) => `rgb(${c.slice(0, 3).map(Math.round).join(', ')})`;
      low.push({text: content, fill: css(front), background: css(behind), ratio});
    }
  }
  return low;
}
