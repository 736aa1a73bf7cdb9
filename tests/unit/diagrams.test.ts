import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {describe, test} from 'node:test';

import type {Root} from 'mdast';
import type {MdxJsxFlowElement} from 'mdast-util-mdx-jsx';
import remarkMdx from 'remark-mdx';
import remarkParse from 'remark-parse';
import {unified} from 'unified';
import {VFile} from 'vfile';

import {DIAGRAM_DIR, diagramAlt, diagramFileName, diagramKey, mermaidBlocks, remarkDiagrams, svgSize} from '../../src/remark/diagrams.ts';
import {docsDiagrams} from '../../scripts/render-diagrams.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SEQUENCE = 'sequenceDiagram\n    participant host as Host (Tango)\n    participant adbd\n    host->>adbd: CNXN';

async function transform(markdown: string, dir: string): Promise<Root> {
  const processor = unified().use(remarkParse).use(remarkMdx).use(remarkDiagrams, {dir});
  const tree = processor.parse(new VFile({value: markdown, path: '/docs/page.mdx'}));
  return processor.run(tree, new VFile({path: '/docs/page.mdx'}));
}

function drawings(sources: string[]): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'diagrams-'));
  for (const source of sources) {
    for (const theme of ['light', 'dark'] as const) {
      fs.writeFileSync(
        path.join(dir, diagramFileName(diagramKey(source), theme)),
        '<svg width="300.5" height="120" viewBox="0 0 300.5 120"></svg>',
      );
    }
  }
  return dir;
}

describe('remarkDiagrams', () => {
  test('replaces a mermaid block with a ThemedImage of its light and dark drawings', async () => {
    const dir = drawings([SEQUENCE]);
    const tree = await transform(`Before.\n\n\`\`\`mermaid\n${SEQUENCE}\n\`\`\`\n\nAfter.`, dir);
    assert.deepEqual(
      tree.children.map((node) => node.type),
      ['paragraph', 'mdxJsxFlowElement', 'paragraph'],
    );
    const element = tree.children[1] as MdxJsxFlowElement;
    assert.equal(element.name, 'ThemedImage');
    const attributes = Object.fromEntries(
      element.attributes.map((attribute) => [
        'name' in attribute ? attribute.name : '',
        typeof attribute.value === 'string' ? attribute.value : attribute.value?.value,
      ]),
    );
    const key = diagramKey(SEQUENCE);
    assert.deepEqual(attributes, {
      className: 'diagram',
      sources: JSON.stringify({light: `/diagrams/${key}.light.svg`, dark: `/diagrams/${key}.dark.svg`}),
      alt: 'Sequence diagram: Host (Tango), adbd',
      width: '301',
      height: '120',
      loading: 'lazy',
      decoding: 'async',
    });
  });

  test('fails with the file, the line and the command when a drawing is missing', async () => {
    const dir = drawings([]);
    await assert.rejects(transform(`# Title\n\n\`\`\`mermaid\n${SEQUENCE}\n\`\`\`\n`, dir), (error: Error) => {
      assert.match(error.message, /\/docs\/page\.mdx:3: the diagram has no drawing .*\.light\.svg; run `npm run diagrams`/);
      return true;
    });
  });

  test('leaves other code blocks alone', async () => {
    const tree = await transform('```ts\nconst a = 1;\n```\n', drawings([]));
    assert.equal(tree.children[0]?.type, 'code');
  });
});

describe('diagram helpers', () => {
  test('the key ignores surrounding whitespace and changes with the source', () => {
    assert.match(diagramKey(SEQUENCE), /^[0-9a-f]{16}$/);
    assert.equal(diagramKey(`\n${SEQUENCE}\n  `), diagramKey(SEQUENCE));
    assert.notEqual(diagramKey(`${SEQUENCE}\n    adbd->>host: CNXN`), diagramKey(SEQUENCE));
  });

  test('mermaidBlocks finds fenced blocks, indented ones included, and skips other languages', () => {
    const markdown = [
      '```mermaid',
      'flowchart LR',
      '  a --> b',
      '```',
      '',
      '```ts',
      'x',
      '```',
      '',
      '- item',
      '',
      '  ```mermaid',
      '  stateDiagram-v2',
      '    s1 --> s2',
      '  ```',
    ].join('\n');
    assert.deepEqual(mermaidBlocks(markdown), ['flowchart LR\n  a --> b', 'stateDiagram-v2\n  s1 --> s2']);
  });

  test('alt text names what is drawn', () => {
    assert.equal(diagramAlt(SEQUENCE), 'Sequence diagram: Host (Tango), adbd');
    assert.equal(diagramAlt('sequenceDiagram\n  A->>B: hi\n  B-->>A: ok'), 'Sequence diagram: A, B');
    assert.equal(
      diagramAlt('flowchart LR\n  code[Your code] --> server["ADB server"]\n  server --> d((adbd))'),
      'Flowchart: Your code, ADB server, adbd',
    );
    assert.equal(diagramAlt('stateDiagram-v2\n  [*] --> Idle\n  Idle --> Running: start()'), 'State diagram: Idle, Running');
    assert.equal(diagramAlt('pie\n  "a": 1'), 'Diagram');
  });

  test('svgSize reads the root size and rejects a drawing without one', () => {
    assert.deepEqual(svgSize('<svg width="10.2" height="5" viewBox="0 0 10.2 5"><g width="99"/></svg>'), {width: 11, height: 5});
    assert.throws(() => svgSize('<svg width="100%" viewBox="0 0 1 1"></svg>'), /no numeric width and height/);
  });

  test('every diagram of the docs has both drawings committed, and no drawing is unused', () => {
    const dir = path.join(ROOT, DIAGRAM_DIR);
    const expected = new Set<string>();
    for (const key of docsDiagrams(ROOT).keys()) {
      expected.add(diagramFileName(key, 'light'));
      expected.add(diagramFileName(key, 'dark'));
    }
    assert.ok(expected.size > 0);
    assert.deepEqual(new Set(fs.readdirSync(dir)), expected, 'run `npm run diagrams` and commit static/diagrams/');
  });
});
