/**
 * The search of the search worker (src/search/worker.ts), without the worker around it.
 *
 * A query's words go through the search plugin's tokenizer; words that no index knows are dropped
 * (see `knownTokens`: a reader's "bluestacks" or "vanilla" would otherwise empty the results, as
 * the plugin requires every word). A short query (at most {@link PLUGIN_QUERY_WORDS} words besides
 * stop words) then runs the plugin's own queries first: every word required, with its variants
 * without stop words, without one word and with fuzzy matching, sorted the plugin's way; these
 * names of things find their pages by title. Every query then gets the sections ranked by
 * ./rank.ts (BM25F over each section and its page's fields), which is what finds the answer to a
 * whole question or a pasted error; a section already listed is not listed again.
 *
 * It uses the plugin's tokenizer, query builder and sorting (`@easyops-cn/docusaurus-search-local`
 * 0.55.3, `dist/client/client/utils/`). Input: a loaded search-index file (`loadIndexes` of
 * ./rank.ts), a query and a limit. Output: results in the shape the plugin's search bar and search
 * page read. Errors: none.
 */
import lunr from 'lunr';
// The plugin's modules (it has no `exports` map); the constants come from its generated module.
import {fuzzyMatchingDistance, language} from '@easyops-cn/docusaurus-search-local/dist/client/client/utils/proxiedGeneratedConstants.js';
import {tokenize} from '@easyops-cn/docusaurus-search-local/dist/client/client/utils/tokenize.js';
import {smartQueries} from '@easyops-cn/docusaurus-search-local/dist/client/client/utils/smartQueries.js';
import {sortSearchResults} from '@easyops-cn/docusaurus-search-local/dist/client/client/utils/sortSearchResults.js';
import {processTreeStatusOfSearchResults} from '@easyops-cn/docusaurus-search-local/dist/client/client/utils/processTreeStatusOfSearchResults.js';
import {knownTokens, trimToken} from './queryPlan';
import {rankSections, stem, type Loaded, type Result} from './rank';

/** Queries of at most this many words (stop words left out) run the plugin's queries first. */
export const PLUGIN_QUERY_WORDS = 3;

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

/** The plugin's queries, in its order, until `limit` results; sorted as the plugin sorts them. */
function pluginResults(loaded: Loaded, tokens: string[], limit: number): Result[] {
  const [titles] = loaded.indexes;
  const results: Result[] = [];
  const seen = new Set<string>();
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
      for (const match of matches.slice(0, limit)) {
        const document = item.byId.get(match.ref);
        if (!document || seen.has(match.ref)) continue;
        seen.add(match.ref);
        results.push({
          document,
          type: item.type,
          page: item.type !== 0 && titles.byId.get(String(document.p)),
          metadata: match.matchData.metadata,
          tokens: queryTokens,
          score: match.score,
        });
        if (results.length >= limit) break search;
      }
    }
  }
  sortSearchResults(results);
  return results;
}

/**
 * Searches a loaded search-index file.
 *
 * @param loaded The indexes of the docs version.
 * @param input The query as typed.
 * @param limit The most results to return (the search bar asks for 8, the search page for 100).
 * @returns The results, best first.
 */
export function search(loaded: Loaded, input: string, limit: number): Result[] {
  const rawTokens = tokenize(input, language);
  const tokens = knownTokens(rawTokens, (token, typing) => isKnown(loaded, token, typing));
  if (tokens.length === 0) return [];
  const lastRaw = rawTokens[rawTokens.length - 1];
  const typing = !/\W$/.test(lastRaw) && tokens[tokens.length - 1] === trimToken(lastRaw) ? tokens[tokens.length - 1] : undefined;
  const contentWords = tokens.filter((token) => lunr.stopWordFilter(token) !== undefined);
  const words = contentWords.length > 0 ? contentWords : tokens;
  const first = words.length <= PLUGIN_QUERY_WORDS ? pluginResults(loaded, tokens, limit) : [];
  const rest =
    first.length < limit
      ? rankSections(loaded, words, typing, tokens, limit - first.length, new Set(first.map(({document}) => String(document.i))))
      : [];
  const results = first.concat(rest);
  processTreeStatusOfSearchResults(results);
  return results;
}
