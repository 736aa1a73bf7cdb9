// Types of what src/search/ uses: lunr 2 ships none, and the search plugin's client
// modules are plain JavaScript.

declare module 'lunr' {
  /** Builds an index (the tests build the plugin's indexes this way). */
  function lunr(config: (this: lunr.Builder, builder: lunr.Builder) => void): lunr.Index;
  namespace lunr {
    interface Builder {
      ref(name: string): void;
      field(name: string): void;
      metadataWhitelist: string[];
      add(doc: object): void;
    }
    class Token {
      constructor(value: string, metadata: object);
      toString(): string;
    }
    class TokenSet {
      static fromString(value: string): TokenSet;
      static fromFuzzyString(value: string, editDistance: number): TokenSet;
      intersect(other: TokenSet): TokenSet;
      toArray(): string[];
    }
    function stemmer(token: Token): Token;
    /** The token (or word) itself, or `undefined` when it is an English stop word. */
    function stopWordFilter<T extends Token | string>(token: T): T | undefined;
    namespace Query {
      enum presence {
        OPTIONAL = 1,
        REQUIRED = 2,
        PROHIBITED = 3,
      }
      enum wildcard {
        NONE = 0,
        LEADING = 1,
        TRAILING = 2,
      }
    }
    interface QueryBuilder {
      term(value: string, options: {presence?: number; wildcard?: number; editDistance?: number}): QueryBuilder;
    }
    namespace Index {
      interface Result {
        ref: string;
        score: number;
        matchData: {metadata: Record<string, object>};
      }
    }
    class Index {
      static load(serialized: object): Index;
      invertedIndex: Record<string, object>;
      tokenSet: TokenSet;
      query(build: (query: QueryBuilder) => void): Index.Result[];
    }
  }
  export default lunr;
}

declare module '@easyops-cn/docusaurus-search-local/dist/client/client/utils/proxiedGeneratedConstants.js' {
  export const language: string[];
  export const searchIndexUrl: string;
  export const fuzzyMatchingDistance: number;
}

declare module '@easyops-cn/docusaurus-search-local/dist/client/client/utils/tokenize.js' {
  export function tokenize(text: string, language: string[]): string[];
}

declare module '@easyops-cn/docusaurus-search-local/dist/client/client/utils/smartQueries.js' {
  export function smartQueries(
    tokens: string[],
    zhDictionary: string[],
  ): {tokens: string[]; term: {value: string; presence: number; wildcard: number; editDistance?: number}[]}[];
}

declare module '@easyops-cn/docusaurus-search-local/dist/client/client/utils/sortSearchResults.js' {
  export function sortSearchResults(results: object[]): void;
}

declare module '@easyops-cn/docusaurus-search-local/dist/client/client/utils/processTreeStatusOfSearchResults.js' {
  export function processTreeStatusOfSearchResults(results: object[]): void;
}
