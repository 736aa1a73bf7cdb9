import {createHash} from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type {Code, Root} from 'mdast';
import type {MdxJsxAttribute, MdxJsxFlowElement} from 'mdast-util-mdx-jsx';
import type {Plugin} from 'unified';
import {visit} from 'unist-util-visit';
import {expressionAttribute} from './mdx-data-attribute';

/**
 * Mermaid diagrams, drawn once and served as SVG images.
 *
 * Pages write diagrams as ` ```mermaid ` code blocks. Instead of shipping Mermaid's library (about
 * 180 KiB of gzipped JavaScript: bench/weight.ts measured a diagram page at 359 KiB with it and 177
 * KiB without, and its layout on the main thread) to every page with a diagram,
 * `npm run diagrams` (scripts/render-diagrams.ts) draws each diagram with Mermaid in
 * Chromium, in a light and a dark variant, into `static/diagrams/<key>.<theme>.svg`; those files are
 * committed. At build time, {@link remarkDiagrams} replaces each code block with a
 * `<ThemedImage>` (Docusaurus's light/dark image) of the two files, and fails the build when a
 * drawing is missing, so a changed diagram cannot ship without being drawn again.
 */

/** Mermaid version the drawings are made with; part of every key, so an upgrade redraws them all. */
export const MERMAID_VERSION = '11.17.2';

/** The two colour modes of the site, and the Mermaid theme each is drawn with. */
export const DIAGRAM_THEMES = {light: 'neutral', dark: 'dark'} as const;
export type DiagramTheme = keyof typeof DIAGRAM_THEMES;

/**
 * Fonts the drawings are laid out with. Arial's metrics (Liberation Sans on Linux has the same ones)
 * are what a reader's device most likely has, so labels fit their boxes there too.
 */
export const DIAGRAM_FONT = 'Arial, "Liberation Sans", Helvetica, sans-serif';

/**
 * Mermaid configuration for one colour mode. Labels are SVG text (`htmlLabels: false`): an SVG shown
 * as an image does not render HTML labels in every browser.
 *
 * Input: the colour mode. Output: the object passed to `mermaid.initialize`. Errors: none.
 */
export function mermaidConfig(theme: DiagramTheme): Record<string, unknown> {
  return {
    startOnLoad: false,
    securityLevel: 'strict',
    theme: DIAGRAM_THEMES[theme],
    fontFamily: DIAGRAM_FONT,
    htmlLabels: false,
    flowchart: {htmlLabels: false},
    // Mermaid's dark theme writes edge labels in #ccc on #585858 (4.4:1) and sequence notes in
    // #b8b6b6 on #474949 (4.49:1); lighter text brings both above 4.5:1.
    themeCSS: theme === 'dark' ? '.edgeLabel text, .edgeLabel tspan, .noteText, .noteText > tspan { fill: #e6e6e6 !important; }' : '',
  };
}

/** Folder of the drawings, relative to the repository root (served at `/diagrams/`). */
export const DIAGRAM_DIR = path.join('static', 'diagrams');

/**
 * The key of a diagram: a hash of the Mermaid version, the drawing settings and the source.
 *
 * Input: the code block's text (surrounding whitespace ignored). Output: 16 lowercase hex digits.
 * Errors: none.
 */
export function diagramKey(source: string): string {
  const settings = JSON.stringify([MERMAID_VERSION, mermaidConfig('light'), mermaidConfig('dark')]);
  return createHash('sha256').update(settings).update('\0').update(source.trim()).digest('hex').slice(0, 16);
}

/** File name of one drawing, e.g. `3f2a….dark.svg`. */
export function diagramFileName(key: string, theme: DiagramTheme): string {
  return `${key}.${theme}.svg`;
}

/**
 * Finds the ` ```mermaid ` blocks of a Markdown or MDX source, as the writing script sees them.
 *
 * Input: the file's text. Output: the text of each block, in order. Errors: none. The build uses the
 * MDX parser instead; where the two disagree the build fails with the key it could not find.
 */
export function mermaidBlocks(markdown: string): string[] {
  const blocks: string[] = [];
  const fence = /^([ \t]*)(`{3,}|~{3,})mermaid[ \t]*\r?\n([\s\S]*?)\r?\n\1\2[ \t]*$/gm;
  for (let match = fence.exec(markdown); match; match = fence.exec(markdown)) {
    const indent = match[1]!;
    blocks.push(
      match[3]!
        .split('\n')
        .map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line))
        .join('\n'),
    );
  }
  return blocks;
}

/**
 * A short text alternative for a diagram, from its source: the kind of diagram and the names in it
 * (participants of a sequence, labelled nodes of a flowchart, states). Pages explain every diagram in
 * the text around it (STYLE.md), so the alternative names what is drawn rather than retelling it.
 *
 * Input: the Mermaid source. Output: e.g. `Sequence diagram: Host (Tango), adbd`. Errors: none.
 */
export function diagramAlt(source: string): string {
  const lines = source
    .trim()
    .split('\n')
    .map((line) => line.trim());
  const kind = lines[0]?.split(/\s/)[0] ?? '';
  const names: string[] = [];
  const add = (name: string | undefined) => {
    const clean = (name ?? '')
      .replace(/<br\s*\/?>/gi, ' ')
      .replace(/^["']|["']$/g, '')
      .replace(/\s+/g, ' ')
      .trim();
    if (clean !== '' && !names.includes(clean)) names.push(clean);
  };
  let label = 'Diagram';
  if (kind === 'sequenceDiagram') {
    label = 'Sequence diagram';
    for (const line of lines) {
      const declared = /^(?:participant|actor)\s+(\S+)(?:\s+as\s+(.+))?$/.exec(line);
      if (declared) add(declared[2] ?? declared[1]);
    }
    if (names.length === 0) {
      for (const line of lines) {
        const message = /^([^\s:-]+)\s*-[-x>)]+[+-]?\s*([^\s:]+)\s*:/.exec(line);
        if (message) {
          add(message[1]);
          add(message[2]);
        }
      }
    }
  } else if (kind === 'flowchart' || kind === 'graph') {
    label = 'Flowchart';
    for (const line of lines.slice(1)) {
      for (const node of line.matchAll(
        /[A-Za-z0-9_]+\s*(?:\[\[|\[\(|\(\[|\(\(|\[|\(|\{\{|\{|>)\s*"?([^\])}"]+)"?\s*(?:\]\]|\)\]|\]\)|\)\)|\]|\)|\}\}|\})/g,
      )) {
        add(node[1]);
      }
    }
  } else if (kind.startsWith('stateDiagram')) {
    label = 'State diagram';
    for (const line of lines.slice(1)) {
      const described = /^state\s+"([^"]+)"\s+as\s+\S+/.exec(line) ?? /^([A-Za-z0-9_]+)\s*:\s*(.+)$/.exec(line);
      if (described) add(described[described.length - 1]);
      for (const state of line.matchAll(/(?:^|-->\s*)([A-Za-z][A-Za-z0-9_]*)/g)) add(state[1]);
    }
  }
  const shown = names.slice(0, 12);
  const rest = names.length > shown.length ? `, and ${names.length - shown.length} more` : '';
  return shown.length > 0 ? `${label}: ${shown.join(', ')}${rest}` : label;
}

/**
 * The intrinsic size of a drawing, from the `width` and `height` the writing script gives its root.
 *
 * Input: SVG text. Output: width and height in CSS pixels (rounded up). Errors: throws when the root
 * element has no numeric width and height (a file not written by scripts/render-diagrams.ts).
 */
export function svgSize(svg: string): {width: number; height: number} {
  const root = /<svg\b[^>]*>/.exec(svg)?.[0] ?? '';
  const width = Number(/\swidth="([\d.]+)"/.exec(root)?.[1]);
  const height = Number(/\sheight="([\d.]+)"/.exec(root)?.[1]);
  if (!(width > 0 && height > 0)) throw new Error('the SVG root has no numeric width and height');
  return {width: Math.ceil(width), height: Math.ceil(height)};
}

/** Options of {@link remarkDiagrams}. */
export interface RemarkDiagramsOptions {
  /** Folder holding the drawings; default `<cwd>/static/diagrams`. */
  dir?: string;
  /** URL path the folder is served at; default `/diagrams/`. */
  urlPath?: string;
}

function attribute(name: string, value: string): MdxJsxAttribute {
  return {type: 'mdxJsxAttribute', name, value};
}

/**
 * Remark plugin: replaces each ` ```mermaid ` code block with
 * `<ThemedImage className="diagram" sources={{light, dark}} alt width height loading="lazy" />`
 * pointing at its two drawings. `ThemedImage` is provided to every page by src/theme/MDXComponents.
 *
 * Input: the page's mdast; options as above. Output: the tree, changed in place.
 * Errors: throws (failing the build) when a drawing of a block is missing or unreadable; the message
 * gives the file and tells the writer to run `npm run diagrams`.
 */
export const remarkDiagrams: Plugin<[RemarkDiagramsOptions?], Root> = (options = {}) => {
  const dir = options.dir ?? path.join(process.cwd(), DIAGRAM_DIR);
  const urlPath = options.urlPath ?? '/diagrams/';
  return (tree, file) => {
    visit(tree, 'code', (node: Code, index, parent) => {
      if (node.lang !== 'mermaid' || parent === undefined || index === undefined) return;
      const key = diagramKey(node.value);
      const sources: Partial<Record<DiagramTheme, string>> = {};
      let size: {width: number; height: number} | undefined;
      for (const theme of Object.keys(DIAGRAM_THEMES) as DiagramTheme[]) {
        const name = diagramFileName(key, theme);
        let svg: string;
        try {
          svg = fs.readFileSync(path.join(dir, name), 'utf8');
        } catch {
          throw new Error(
            `${file.path ?? 'a page'}:${node.position?.start.line ?? '?'}: the diagram has no drawing ${path.join(dir, name)}; ` +
              'run `npm run diagrams` and commit static/diagrams/.',
          );
        }
        size ??= svgSize(svg);
        sources[theme] = `${urlPath}${name}`;
      }
      const element: MdxJsxFlowElement = {
        type: 'mdxJsxFlowElement',
        name: 'ThemedImage',
        attributes: [
          attribute('className', 'diagram'),
          expressionAttribute('sources', sources),
          attribute('alt', diagramAlt(node.value)),
          attribute('width', String(size!.width)),
          attribute('height', String(size!.height)),
          attribute('loading', 'lazy'),
          attribute('decoding', 'async'),
        ],
        children: [],
      };
      parent.children.splice(index, 1, element);
    });
  };
};
