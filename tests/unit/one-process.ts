/**
 * Loads every unit test file of tests/unit/ and device/test/ (`*.test.ts`, `*.test.tsx`; not those
 * of tests/unit/own-process/) into this one process, each file's tests in a suite named after the
 * file. `npm run test:unit` runs this file beside each file of tests/unit/own-process/.
 *
 * Why: node 20's test runner starts a process per file, and each process loads tsx, TypeScript and
 * React again. The 33 files took 81 CPU-s as 33 processes and 45 CPU-s in one, on the 2-core CI
 * machine where every CPU-second of `npm test` counts. A file whose tests block the process for
 * long (spawnSync of whole builds) goes to tests/unit/own-process/, to run beside this one.
 *
 * A single file still runs alone: `node --import tsx --import ./tests/unit/setup.mjs --test FILE`.
 *
 * Input: the folders' file names, sorted. Output: one `describe` per file. Errors: a file that
 * throws while loading fails its suite, and the run.
 */
import {describe} from 'node:test';
import {readdirSync} from 'node:fs';
import {createRequire} from 'node:module';
import path from 'node:path';
import {fileURLToPath} from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const FOLDERS = ['tests/unit', 'device/test'];
const load = createRequire(import.meta.url);

for (const folder of FOLDERS) {
  for (const name of readdirSync(path.join(REPO, folder)).sort()) {
    if (!/\.test\.tsx?$/.test(name)) continue;
    // tsx compiles these files to CommonJS (package.json has no "type": "module"): require loads
    // one synchronously, so that its tests register inside the suite.
    describe(`${folder}/${name}`, () => {
      load(path.join(REPO, folder, name));
    });
  }
}
