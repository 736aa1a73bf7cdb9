/**
 * The longest query, in UTF-16 code units, that the search page hands to the search plugin. The
 * plugin matches every word with an edit distance, at a cost that grows steeply with the word's
 * length: on a 2-core machine 300 characters take 0.5 s, 1 200 take 7 s and 4 000 keep the
 * search worker (and every later search of the page) busy for minutes, behind a spinner.
 */
export const MAX_QUERY_LENGTH = 200;

/**
 * Cuts a query to at most `max` UTF-16 code units, never between the two halves of a surrogate
 * pair (a lone half would not survive URL encoding).
 *
 * @param query The query as read from `?q=`.
 * @param max The limit, MAX_QUERY_LENGTH by default.
 * @returns The query itself when it is short enough, else its longest allowed start.
 */
export function shortenQuery(query: string, max = MAX_QUERY_LENGTH): string {
  if (query.length <= max) return query;
  const cut = query.slice(0, max);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}
