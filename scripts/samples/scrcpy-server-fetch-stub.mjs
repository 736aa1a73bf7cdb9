/**
 * Stands in for `gh-release-fetch` while `fetch-scrcpy-server` runs under the sample checker
 * (scrcpy-server.ts): loaded with `node --import`, it resolves the package's import of
 * `gh-release-fetch` to this file, whose `fetchVersion({package, destination})` writes the bytes of
 * the environment variable TANGO_STAND_IN_SERVER (base64: the simulated device's stand-in server)
 * to `<destination>/<package>`, where the release file would have been downloaded.
 * Throws when the variable is not set.
 */
import {writeFile} from 'node:fs/promises';
import {register} from 'node:module';
import {join} from 'node:path';

const HOOK = `export async function resolve(specifier, context, next) {
  if (specifier === 'gh-release-fetch') return {url: ${JSON.stringify(import.meta.url)}, shortCircuit: true};
  return next(specifier, context);
}`;

if (!globalThis.__tangoFetchStub) {
  globalThis.__tangoFetchStub = true;
  register(`data:text/javascript,${encodeURIComponent(HOOK)}`);
}

/** What `gh-release-fetch`'s `fetchVersion` does for a file release asset, offline. */
export async function fetchVersion({package: name, destination}) {
  const bytes = process.env.TANGO_STAND_IN_SERVER;
  if (!bytes) throw new Error('TANGO_STAND_IN_SERVER is not set: run through scripts/samples/scrcpy-server.ts');
  await writeFile(join(destination, name), Buffer.from(bytes, 'base64'));
}
