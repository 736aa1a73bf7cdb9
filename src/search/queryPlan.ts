/**
 * Pure helpers of the search worker (`src/search/worker.ts`): which of a reader's words the index
 * knows, and how the any-word fallback ranks its results.
 */

/** The token without the punctuation around it, as lunr's trimmer stores words: `'USB':` → `USB`. */
export function trimToken(token: string): string {
  return token.replace(/^\W+/, '').replace(/\W+$/, '');
}

/**
 * The tokens that the index knows, in order and once each. A word that no page uses (a reader's
 * "bluestacks" or "vanilla") would make the plugin's all-words-required queries find nothing, so
 * it is left out. Tokens are trimmed of surrounding punctuation first (pasted error texts quote
 * their words), and an unknown token with punctuation inside (`adb.subprocess.spawnAndWait`,
 * `(40);`) is replaced by its known parts.
 *
 * @param tokens - The query's tokens, lower case, as the plugin's tokenizer splits them.
 * @param isKnown - Whether the index has the token; `typing` is set for the last word when nothing
 *   follows it, which may be unfinished.
 * @returns The known tokens; empty when none is known.
 */
export function knownTokens(tokens: readonly string[], isKnown: (token: string, typing: boolean) => boolean): string[] {
  const known: string[] = [];
  const keep = (token: string) => {
    if (!known.includes(token)) known.push(token);
  };
  tokens.forEach((raw, index) => {
    const token = trimToken(raw);
    if (!token) return;
    const typing = index === tokens.length - 1 && !/\W$/.test(raw);
    if (isKnown(token, typing)) {
      keep(token);
      return;
    }
    const parts = token.split(/\W+/);
    if (parts.length < 2) return;
    parts.forEach((part, partIndex) => {
      if (isKnown(part, typing && partIndex === parts.length - 1)) keep(part);
    });
  });
  return known;
}

/**
 * How many of the query's words a result matched.
 *
 * @param matchedTerms - The index terms the result matched (the keys of lunr's `matchData.metadata`).
 * @param stems - The query's words as the index stores them (stemmed), one entry per word.
 * @param typingPrefix - The last word as typed, when it may be unfinished: any matched term
 *   starting with it counts for that word.
 */
export function coverage(matchedTerms: readonly string[], stems: readonly string[], typingPrefix?: string): number {
  const matched = new Set(matchedTerms);
  let count = 0;
  stems.forEach((stem, index) => {
    const isLast = index === stems.length - 1;
    if (matched.has(stem) || (isLast && typingPrefix !== undefined && matchedTerms.some((term) => term.startsWith(typingPrefix)))) {
      count += 1;
    }
  });
  return count;
}

/** A result of the any-word fallback. */
export interface FallbackCandidate {
  /** Words matched (`coverage`). */
  matched: number;
  /** The plugin's document type: 0 title, 1 heading, 2 description, 3 keywords, 4 content. */
  type: number;
  /** lunr's score within its index. */
  score: number;
}

/** Fallback order: most words matched first, then titles, headings… before content, then lunr's score. */
export function compareFallback(a: FallbackCandidate, b: FallbackCandidate): number {
  return b.matched - a.matched || a.type - b.type || b.score - a.score;
}
