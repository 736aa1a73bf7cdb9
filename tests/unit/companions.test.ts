import assert from 'node:assert/strict';
import {describe, test} from 'node:test';

import {blockTitle, relativeImports, sampleProgram} from '../../scripts/samples/companions.ts';
import type {SampleBlock} from '../../scripts/samples/extract.ts';

const block = (file: string, meta: string, code: string): SampleBlock => ({file, line: 1, column: 1, lang: 'ts', meta, code});

describe('samples of several files (companions.ts)', () => {
  test('a title names the file; relative imports are listed once each', () => {
    assert.equal(blockTitle(block('a.mdx', 'title="client/main.ts" {1-2}', '')), 'client/main.ts');
    assert.equal(blockTitle(block('a.mdx', 'title="Signature"', '')), undefined);
    assert.deepEqual(
      relativeImports('import {a} from "./a.js";\nimport "../b.js";\nexport * from \'./a.js\';\nconst c = await import("./c.js");'),
      ['./a.js', '../b.js', './c.js'],
    );
  });

  test("imports resolve against the importer's title, on its page first, then in one other page, transitively", () => {
    const main = block('index.mdx', 'title="client/main.ts"', 'import {T} from "./transport.js";');
    const transport = block('transport.mdx', 'title="client/transport.ts"', 'import {S} from "./socket.js";');
    const socket = block('socket.mdx', 'title="client/socket.ts"', 'export class S {}');
    const otherSocket = block('other.mdx', 'title="server/socket.ts"', 'export class S {}');
    const {files, missing} = sampleProgram(main, [main, transport, socket, otherSocket]);
    assert.deepEqual(
      files.map((file) => [file.path, file.block.file]),
      [
        ['client/main.ts', 'index.mdx'],
        ['client/transport.ts', 'transport.mdx'],
        ['client/socket.ts', 'socket.mdx'],
      ],
    );
    assert.deepEqual(missing, []);
  });

  test('an import that no block answers, or that two other pages answer, is missing', () => {
    const main = block('index.mdx', 'title="main.ts"', 'import "./a.js";\nimport "./b.js";');
    const a1 = block('one.mdx', 'title="a.ts"', '');
    const a2 = block('two.mdx', 'title="a.ts"', '');
    assert.deepEqual(sampleProgram(main, [main, a1, a2]).missing, ['a.ts', 'b.ts']);
    const own = block('index.mdx', 'title="a.ts"', '');
    assert.equal(sampleProgram(main, [main, a1, a2, own]).files[1]!.block, own);
  });
});
