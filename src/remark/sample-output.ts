import fs from 'node:fs';
import path from 'node:path';
import type {Code, Paragraph, Parent, Root} from 'mdast';
import type {Node} from 'unist';
import type {VFile} from 'vfile';
import {visitParents} from 'unist-util-visit-parents';
import {recordNames, recordPath, STDERR_MARK} from '../../scripts/samples/record.ts';
import {parseMeta, type SampleBlock} from '../../scripts/samples/extract.ts';
import {usesSimulatedDevice} from '../../scripts/samples/prelude.ts';
import {docsVersionOfFile} from './docs-version.ts';

/** The code-block languages the sample runner runs (scripts/samples/extract.ts SAMPLE_LANGS). */
const SAMPLE_LANGS = new Set(['ts', 'typescript', 'tsx']);

/** The title of the block that shows what a sample printed on stdout. */
export const OUTPUT_TITLE = 'Output';
/** The title of the block that shows what it printed on stderr, when it printed anything there. */
export const STDERR_TITLE = 'Output (stderr)';

/** The page the note on a page's first device output links to, in the page's docs folder: what the simulated device is and how it differs from a phone. */
export const DEVICE_PAGE = 'internal/simulated-device.mdx';
/** The class of that note, a caption under the output (src/css/custom.css). */
export const DEVICE_NOTE_CLASS = 'sample-output-device';

/**
 * The note under a page's first output of a sample that talks to the device: where the output
 * comes from, with a relative file link to {@link DEVICE_PAGE} (so the build checks it).
 *
 * @param page The page's path inside its docs folder (`tango/consumable.mdx`).
 * @returns A paragraph: "Recorded from the simulated Pixel 7." with the device words linked.
 */
export function deviceNote(page: string): Paragraph {
  const url = path.posix.relative(path.posix.dirname(page), DEVICE_PAGE);
  return {
    type: 'paragraph',
    data: {hProperties: {className: [DEVICE_NOTE_CLASS]}},
    children: [
      {type: 'text', value: 'Recorded from the '},
      {type: 'link', url: url.startsWith('.') ? url : `./${url}`, children: [{type: 'text', value: 'simulated Pixel 7'}]},
      {type: 'text', value: '.'},
    ],
  };
}

/**
 * JSX elements whose children are a fixed set of code blocks (the two sides of a `<DiffTable>`):
 * a sample's output goes after the element, not inside it.
 */
const CLOSED_ELEMENTS = new Set(['DiffTable']);

/** Terminal control sequences (CSI such as colours and cursor moves, OSC, single-character escapes). */
// eslint-disable-next-line no-control-regex
const TERMINAL_CONTROLS = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)|[@-Z\\-_])/g;

/**
 * What a terminal would leave readable of a program's output, for a page: terminal control
 * sequences (a full-screen program's colours and cursor moves) removed, `\r\n` as `\n`, and other
 * control characters but tab and newline (a NUL that ends a log message) removed.
 *
 * @param text Recorded output.
 * @returns The text without control sequences or characters.
 */
export function printable(text: string): string {
  return (
    text
      .replace(TERMINAL_CONTROLS, '')
      .replace(/\r\n/g, '\n')
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '')
  );
}

/**
 * A page's path inside its docs folder, as the recordings name it.
 *
 * @param filePath The page's path (absolute, or relative to the site), `/` or the platform separator.
 * @returns `api/adb/rm.mdx` for `…/docs/api/adb/rm.mdx` or `…/versioned_docs/version-1.1.0/api/adb/rm.mdx`;
 *   `undefined` for a file in neither folder.
 */
export function pageInDocsFolder(filePath: string): string | undefined {
  const parts = filePath.split(/[\\/]/);
  const versioned = parts.lastIndexOf('versioned_docs');
  if (versioned >= 0 && parts[versioned + 1]?.startsWith('version-')) return parts.slice(versioned + 2).join('/');
  const docs = parts.lastIndexOf('docs');
  return docs >= 0 ? parts.slice(docs + 1).join('/') : undefined;
}

/**
 * Splits a recording (scripts/samples/record.ts formatRecord) into what the sample printed on
 * stdout and on stderr.
 *
 * @param recording The recording's text.
 * @returns Both parts without their last newline; `stderr` is empty when the sample printed nothing there.
 */
export function splitRecording(recording: string): {stdout: string; stderr: string} {
  const lines = recording.split('\n');
  const mark = lines.indexOf(STDERR_MARK);
  const part = (from: number, to?: number) => lines.slice(from, to).join('\n').replace(/\n+$/, '');
  return mark < 0 ? {stdout: part(0), stderr: ''} : {stdout: part(0, mark), stderr: part(mark + 1)};
}

/** Whether a node is an output block this plugin added. */
function isOutput(node: unknown): boolean {
  const code = node as Code | undefined;
  return (
    code?.type === 'code' && code.lang === 'text' && (code.meta === `title="${OUTPUT_TITLE}"` || code.meta === `title="${STDERR_TITLE}"`)
  );
}

/**
 * Remark plugin: shows what each sample printed when the sample runner last ran it. After every
 * TypeScript code block that has a recording (`samples/recorded/<version>/<page>/<name>.txt`, named
 * as scripts/samples/record.ts names it, written by `npm run check:samples -- --record`), it inserts a
 * plain-text code block titled "Output" with the recorded stdout, and one titled "Output (stderr)"
 * when the sample printed on stderr. The recordings are normalised by the runner (`<port>`, `<run>`
 * stand for what changes from run to run); terminal control sequences are left out (printable). A
 * sample inside a `<DiffTable>` gets its output after the table. A block without a recording, or
 * whose recording is empty, gets nothing. The first output of a sample that talks to the simulated
 * device (usesSimulatedDevice) says where it was recorded, once per page (deviceNote).
 *
 * Input: a page's mdast, and its VFile (`path`: the page, under `docs/` or
 * `versioned_docs/version-X/`; `cwd`: the site folder, which holds `samples/`). Must run before
 * ts-to-js-tabs.ts, which wraps the TypeScript blocks in tabs (the output then follows both tabs),
 * and before Docusaurus resolves Markdown file links (a `beforeDefaultRemarkPlugins` plugin), which
 * turns the note's link into the page's URL.
 * Output: the tree with the output blocks added. Errors: none; a page outside the docs folders is
 * left as it is. Facts: the recordings, which `npm run check:samples -- --run` compares with every run.
 */
export default function remarkSampleOutput() {
  return (tree: Root, file: VFile) => {
    const page = file.path ? pageInDocsFolder(file.path) : undefined;
    if (!page) return;
    const version = docsVersionOfFile(file.path);
    const blocks: Array<{node: Code; parent: Parent; block: SampleBlock}> = [];
    visitParents(tree, 'code', (node: Code, ancestors: Node[]) => {
      if (!SAMPLE_LANGS.has(node.lang ?? '')) return;
      // Inside a DiffTable, the output goes after the table: its node is the one to follow.
      const closed = ancestors.findIndex((ancestor) => CLOSED_ELEMENTS.has((ancestor as {name?: string}).name ?? ''));
      const anchor = closed > 0 ? (ancestors[closed] as Code) : node;
      const parent = (closed > 0 ? ancestors[closed - 1] : ancestors.at(-1)) as Parent | undefined;
      if (!parent) return;
      const block = {file: page, line: 0, column: 0, lang: 'ts', meta: node.meta ?? '', code: node.value} satisfies SampleBlock;
      blocks.push({node: anchor, parent, block});
    });
    if (blocks.length === 0) return;
    const names = recordNames(blocks.map(({block}) => block));
    let noted = false;
    for (const {node, parent, block} of blocks) {
      const recording = path.join(file.cwd, recordPath(version, page, names.get(block)!));
      if (!fs.existsSync(recording)) continue;
      const {stdout, stderr} = splitRecording(printable(fs.readFileSync(recording, 'utf8')));
      const added: Array<Code | Paragraph> = [];
      if (stdout !== '') added.push({type: 'code', lang: 'text', meta: `title="${OUTPUT_TITLE}"`, value: stdout});
      if (stderr !== '') added.push({type: 'code', lang: 'text', meta: `title="${STDERR_TITLE}"`, value: stderr});
      if (added.length > 0 && !noted && usesSimulatedDevice(block.code, parseMeta(block.meta).prelude)) {
        noted = true;
        added.push(deviceNote(page));
      }
      // After the anchor and the outputs already put after it (two samples of one DiffTable).
      let at = parent.children.indexOf(node as never) + 1;
      while (at < parent.children.length && isOutput(parent.children[at])) at += 1;
      parent.children.splice(at, 0, ...added);
    }
  };
}
