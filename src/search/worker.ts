/**
 * The search plugin's Web Worker (`@easyops-cn/docusaurus-search-local` 0.55.3,
 * `dist/client/client/theme/worker.js`), put in its place by the `tango-search-worker` plugin of
 * docusaurus.config.ts. It exposes the same `SearchWorker` API to the plugin's search bar and page
 * and uses the plugin's own tokenizer, query builder and result sorting, with two changes for
 * readers' words (issue #25):
 *
 * - words that no index knows are dropped before the plugin builds its queries, which require
 *   every word (see `knownTokens`);
 * - when those queries fill fewer than `limit` results, any-word queries fill the rest, pages
 *   matching the most words first (pasted sentences and error texts).
 */
import * as Comlink from 'comlink';
import lunr from 'lunr';
// The plugin's modules (it has no `exports` map); the constants come from its generated module.
import {
  fuzzyMatchingDistance,
  language,
  searchIndexUrl,
} from '@easyops-cn/docusaurus-search-local/dist/client/client/utils/proxiedGeneratedConstants.js';
import {tokenize} from '@easyops-cn/docusaurus-search-local/dist/client/client/utils/tokenize.js';
import {smartQueries} from '@easyops-cn/docusaurus-search-local/dist/client/client/utils/smartQueries.js';
import {sortSearchResults} from '@easyops-cn/docusaurus-search-local/dist/client/client/utils/sortSearchResults.js';
import {processTreeStatusOfSearchResults} from '@easyops-cn/docusaurus-search-local/dist/client/client/utils/processTreeStatusOfSearchResults.js';
import {compareFallback, coverage, knownTokens} from './queryPlan';

interface SearchDocument {
  i: number;
  p?: number;
  [key: string]: unknown;
}

interface LoadedIndex {
  type: number;
  documents: SearchDocument[];
  byId: Map<string, SearchDocument>;
  index: lunr.Index;
}

interface Loaded {
  indexes: LoadedIndex[];
  zhDictionary: string[];
  /** Per token (and whether it may be unfinished): known to some index. */
  known: Map<string, boolean>;
}

interface Result {
  document: SearchDocument;
  type: number;
  page: SearchDocument | false | undefined;
  metadata: object;
  tokens: string[];
  score: number;
}

const loads = new Map<string, Promise<Loaded>>();

async function load(baseUrl: string, searchContext: string): Promise<Loaded> {
  const url = `${baseUrl}${searchIndexUrl.replace('{dir}', searchContext ? `-${searchContext.replace(/\//g, '-')}` : '')}`;
  if (new URL(url, location.origin).origin !== location.origin) throw new Error('Unexpected version url');
  const json = (await (await fetch(url)).json()) as {documents: SearchDocument[]; index: object}[];
  const zh = new Set<string>();
  const indexes = json.map(({documents, index}, type) => {
    const loaded = lunr.Index.load(index);
    for (const term of Object.keys(loaded.invertedIndex)) if (/\p{Unified_Ideograph}/u.test(term[0] ?? '')) zh.add(term);
    return {type, documents, byId: new Map(documents.map((doc) => [doc.i.toString(), doc])), index: loaded};
  });
  return {indexes, zhDictionary: [...zh], known: new Map()};
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

/** The token as lunr stores it (English stemmer). */
function stem(token: string): string {
  return lunr.stemmer(new lunr.Token(token, {})).toString();
}

/** Whether some index has the token, its stem, a word it starts (when typing) or one within the fuzzy distance. */
function isKnown(loaded: Loaded, token: string, typing: boolean): boolean {
  const key = `${typing ? '*' : ''}${token}`;
  const cached = loaded.known.get(key);
  if (cached !== undefined) return cached;
  const stemmed = stem(token);
  const distance = Math.max(0, fuzzyMatchingDistance);
  const known = loaded.indexes.some(({index}) => {
    if (stemmed in index.invertedIndex || token in index.invertedIndex) return true;
    if (typing && index.tokenSet.intersect(lunr.TokenSet.fromString(`${token}*`)).toArray().length > 0) return true;
    return (
      distance > 0 &&
      stemmed.length > distance + 2 &&
      index.tokenSet.intersect(lunr.TokenSet.fromFuzzyString(stemmed, distance)).toArray().length > 0
    );
  });
  loaded.known.set(key, known);
  return known;
}

function toResult(item: LoadedIndex, first: LoadedIndex, match: lunr.Index.Result, tokens: string[]): Result | undefined {
  const document = item.byId.get(match.ref);
  if (!document) return undefined;
  return {
    document,
    type: item.type,
    page: item.type !== 0 && first.byId.get(String(document.p)),
    metadata: match.matchData.metadata,
    tokens,
    score: match.score,
  };
}

export class SearchWorker {
  async fetchIndexes(baseUrl: string, searchContext: string): Promise<void> {
    await loadCached(baseUrl, searchContext);
  }

  async search(baseUrl: string, searchContext: string, input: string, limit: number): Promise<Result[]> {
    const rawTokens = tokenize(input, language);
    if (rawTokens.length === 0) return [];
    const loaded = await loadCached(baseUrl, searchContext);
    const tokens = knownTokens(rawTokens, (token, typing) => isKnown(loaded, token, typing));
    if (tokens.length === 0) return [];
    const [first] = loaded.indexes;
    const results: Result[] = [];
    const fallback: Result[] = [];
    const seen = new Set<string>();
    const add = (to: Result[], item: LoadedIndex, match: lunr.Index.Result, queryTokens: string[]) => {
      if (seen.has(match.ref) || results.length + fallback.length >= limit) return;
      const result = toResult(item, first, match, queryTokens);
      if (!result) return;
      seen.add(match.ref);
      to.push(result);
    };
    // The plugin's queries (every word required; variants without stop words, without one word, fuzzy).
    search: for (const {term, tokens: queryTokens} of smartQueries(tokens, loaded.zhDictionary)) {
      for (const item of loaded.indexes) {
        const matches = item.index.query((query) => {
          for (const clause of term) {
            query.term(clause.value, {
              wildcard: clause.wildcard,
              presence: clause.presence,
              ...(clause.editDistance ? {editDistance: clause.editDistance} : null),
            });
          }
        });
        for (const match of matches.slice(0, limit)) add(results, item, match, queryTokens);
        if (results.length >= limit) break search;
      }
    }
    // Any-word fallback: the pages that match the most of the words.
    if (results.length < limit && tokens.length > 1) {
      const stems = tokens.map(stem);
      const typing = tokens[tokens.length - 1];
      const candidates = loaded.indexes.flatMap((item) =>
        item.index
          .query((query) => {
            tokens.forEach((token, index) => {
              const last = index === tokens.length - 1;
              query.term(token, {
                presence: lunr.Query.presence.OPTIONAL,
                wildcard: last ? lunr.Query.wildcard.TRAILING : lunr.Query.wildcard.NONE,
              });
            });
          })
          .map((match) => ({
            item,
            match,
            type: item.type,
            score: match.score,
            matched: coverage(Object.keys(match.matchData.metadata), stems, typing),
          })),
      );
      candidates.sort(compareFallback);
      for (const {item, match} of candidates) add(fallback, item, match, tokens);
    }
    // Sorted apart, so that a page's title found only by the fallback does not pull that page's
    // headings and content, found by every word, down to it.
    sortSearchResults(results);
    sortSearchResults(fallback);
    const all = results.concat(fallback);
    processTreeStatusOfSearchResults(all);
    return all;
  }
}

Comlink.expose(SearchWorker);
