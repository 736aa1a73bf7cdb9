/**
 * Pure helpers of the search (`src/search/engine.ts`): which of a reader's words the index knows.
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
