/**
 * Draws every Mermaid diagram of the docs into static/diagrams/ (see src/remark/diagrams.ts).
 *
 * Usage: `npm run diagrams`            draws the diagrams that have no drawing yet, deletes drawings
 *                                      no page uses any more;
 *        `npm run diagrams -- --all`   draws every diagram again.
 * Needs Chromium (Debian's `chromium`, or CHROMIUM_PATH): Mermaid lays labels out with the browser's
 * text measurement. The site's build and tests do not need this script; they read the committed files.
 *
 * Input: the ` ```mermaid ` blocks of docs/ and versioned_docs/. Output: `<key>.light.svg` and
 * `<key>.dark.svg` per diagram, each with a numeric width and height; prints what it did.
 * Errors: exits 1 when Mermaid rejects a diagram (file and message printed) or when a label of a
 * drawing has less than 4.5:1 contrast with what is behind it (scripts/diagram-contrast.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import {createRequire} from 'node:module';
import {fileURLToPath} from 'node:url';
import {chromium} from '@playwright/test';
import {
  DIAGRAM_DIR,
  DIAGRAM_THEMES,
  MERMAID_VERSION,
  diagramFileName,
  diagramKey,
  mermaidBlocks,
  mermaidConfig,
  type DiagramTheme,
} from '../src/remark/diagrams';
import {DIAGRAM_BACKGROUNDS, lowContrastLabels} from './diagram-contrast';
import {listPages} from './pages.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

/**
 * The diagrams the docs need: every ` ```mermaid ` block of docs/ and versioned_docs/, by key.
 *
 * @param root The repository root.
 * @returns For each distinct key, the block's source and the first page (relative path) using it.
 */
export function docsDiagrams(root: string): Map<string, {source: string; where: string}> {
  const diagrams = new Map<string, {source: string; where: string}>();
  for (const file of [...listPages(path.join(root, 'docs')), ...listPages(path.join(root, 'versioned_docs'))]) {
    for (const source of mermaidBlocks(fs.readFileSync(file, 'utf8'))) {
      const key = diagramKey(source);
      if (!diagrams.has(key)) diagrams.set(key, {source, where: path.relative(root, file)});
    }
  }
  return diagrams;
}

/**
 * Gives the root `<svg>` a numeric width and height (Mermaid writes `width="100%"` and a max-width
 * style), so the drawing has an intrinsic size as an image.
 */
function sized(svg: string): string {
  return svg.replace(/<svg\b[^>]*>/, (root) => {
    const viewBox = /viewBox="([-\d.]+) ([-\d.]+) ([\d.]+) ([\d.]+)"/.exec(root);
    if (!viewBox) throw new Error('Mermaid wrote an SVG without a viewBox');
    const width = Math.ceil(Number(viewBox[3]));
    const height = Math.ceil(Number(viewBox[4]));
    return root
      .replace(/\swidth="[^"]*"/, '')
      .replace(/\sheight="[^"]*"/, '')
      .replace(/\sstyle="[^"]*"/, '')
      .replace(/^<svg/, `<svg width="${width}" height="${height}"`);
  });
}

async function main(): Promise<number> {
  const redrawAll = process.argv.includes('--all');
  const installed = (require('mermaid/package.json') as {version: string}).version;
  if (installed !== MERMAID_VERSION) {
    console.error(`mermaid ${installed} is installed, src/remark/diagrams.ts says ${MERMAID_VERSION}: make them agree.`);
    return 1;
  }
  const dir = path.join(ROOT, DIAGRAM_DIR);
  fs.mkdirSync(dir, {recursive: true});

  const diagrams = docsDiagrams(ROOT);
  const themes = Object.keys(DIAGRAM_THEMES) as DiagramTheme[];
  const wanted = new Set([...diagrams.keys()].flatMap((key) => themes.map((theme) => diagramFileName(key, theme))));
  let removed = 0;
  for (const name of fs.readdirSync(dir)) {
    if (name.endsWith('.svg') && !wanted.has(name)) {
      fs.rmSync(path.join(dir, name));
      removed++;
    }
  }
  const todo = [...diagrams].filter(
    ([key]) => redrawAll || themes.some((theme) => !fs.existsSync(path.join(dir, diagramFileName(key, theme)))),
  );

  let failures = 0;
  if (todo.length > 0) {
    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: ['--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
    });
    try {
      const page = await browser.newPage();
      await page.setContent('<!doctype html><html><body></body></html>');
      // tsx keeps function names with a `__name` helper that the page lacks.
      await page.evaluate('window.__name = (f) => f');
      await page.addScriptTag({path: require.resolve('mermaid/dist/mermaid.min.js')});
      for (const [key, {source, where}] of todo) {
        for (const theme of themes) {
          try {
            const svg = await page.evaluate(
              async ({id, text, config}) => {
                const mermaid = (
                  window as unknown as {mermaid: {initialize(c: unknown): void; render(id: string, text: string): Promise<{svg: string}>}}
                ).mermaid;
                mermaid.initialize(config);
                return (await mermaid.render(id, text)).svg;
              },
              {id: `d${key}`, text: source, config: mermaidConfig(theme)},
            );
            const drawing = sized(svg);
            const low = await page.evaluate(lowContrastLabels, {svg: drawing, background: DIAGRAM_BACKGROUNDS[theme], minimum: 4.5});
            if (low.length > 0) {
              failures++;
              console.error(`${where}: ${theme} drawing has low-contrast labels: ${JSON.stringify(low)}`);
              continue;
            }
            fs.writeFileSync(path.join(dir, diagramFileName(key, theme)), `${drawing}\n`);
          } catch (error) {
            failures++;
            console.error(`${where}: Mermaid could not draw the diagram (${theme}): ${(error as Error).message}`);
          }
        }
      }
    } finally {
      await browser.close();
    }
  }
  console.log(`diagrams: ${diagrams.size} in the docs, ${todo.length} drawn, ${removed} old drawings removed, ${failures} failed`);
  return failures === 0 ? 0 : 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
