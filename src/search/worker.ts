/**
 * The search plugin's Web Worker (`@easyops-cn/docusaurus-search-local` 0.55.3,
 * `dist/client/client/theme/worker.js`), put in its place by the `tango-search-worker` plugin of
 * docusaurus.config.ts. It exposes the same `SearchWorker` API to the plugin's search bar and page:
 * it fetches a version's search index once, and searches it with `search` of ./engine.ts (the
 * plugin's search, changed for readers' words and questions as engine.ts describes).
 */
import * as Comlink from 'comlink';
import {searchIndexUrl} from '@easyops-cn/docusaurus-search-local/dist/client/client/utils/proxiedGeneratedConstants.js';
import {search} from './engine';
import {loadIndexes, type Loaded, type Result, type SearchDocument} from './rank';

const loads = new Map<string, Promise<Loaded>>();

async function load(baseUrl: string, searchContext: string): Promise<Loaded> {
  const url = `${baseUrl}${searchIndexUrl.replace('{dir}', searchContext ? `-${searchContext.replace(/\//g, '-')}` : '')}`;
  if (new URL(url, location.origin).origin !== location.origin) throw new Error('Unexpected version url');
  return loadIndexes((await (await fetch(url)).json()) as {documents: SearchDocument[]; index: object}[]);
}

function loadCached(baseUrl: string, searchContext: string): Promise<Loaded> {
  const key = `${baseUrl}${searchContext}`;
  let promise = loads.get(key);
  if (!promise) {
    promise = load(baseUrl, searchContext);
    loads.set(key, promise);
  }
  return promise;
}

export class SearchWorker {
  async fetchIndexes(baseUrl: string, searchContext: string): Promise<void> {
    await loadCached(baseUrl, searchContext);
  }

  async search(baseUrl: string, searchContext: string, input: string, limit: number): Promise<Result[]> {
    return search(await loadCached(baseUrl, searchContext), input, limit);
  }
}

Comlink.expose(SearchWorker);
