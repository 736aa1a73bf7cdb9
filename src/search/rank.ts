/**
 * Ranking for readers' questions (issue #34), used by the search worker through ./engine.ts.
 *
 * The search plugin's own queries require every word of a query in one document (a title, a
 * heading, a description, the keywords or one section's text). A reader's question or pasted error
 * rarely has all its words in one of them, so the plugin then offers what its looser variants
 * happen to match. Here each section of a page is scored as one unit with BM25F: its heading and
 * its text, plus its page's title, description and keywords, each field weighted, its term
 * frequency normalized by the field's length, and each query word weighted by how few pages use it
 * (so "support" counts for little and "claimInterface" for much). A unit gains when more of the
 * words appear in it, and when two words of the query stand next to each other in one of its
 * fields. Results give each page's best section first, in score order, then the other sections.
 *
 * Input: the five indexes of a `search-index*.json` file as the plugin writes them (title,
 * heading, description, keywords, content; each a lunr index over the field `t` with term
 * positions) and the query's words. Output: results in the shape the plugin's search bar and page
 * read. Errors: none.
 */
import lunr from 'lunr';

/** A document of one of the plugin's indexes: `i` its id, `p` its page's id (all but titles), `h` its anchor. */
export interface SearchDocument {
  i: number;
  p?: number;
  h?: string;
  t?: string;
  [key: string]: unknown;
}

/** One of the five indexes of a search-index file, in the plugin's order: title, heading, description, keywords, content. */
export interface LoadedIndex {
  type: number;
  documents: SearchDocument[];
  byId: Map<string, SearchDocument>;
  index: lunr.Index;
}

/** The indexes of one search-index file. */
export interface Loaded {
  indexes: LoadedIndex[];
  zhDictionary: string[];
  /** Per token (and whether it may be unfinished): known to some index. */
  known: Map<string, boolean>;
}

/** One result, as the plugin's search bar and page read it. */
export interface Result {
  document: SearchDocument;
  type: number;
  page: SearchDocument | false | undefined;
  metadata: object;
  tokens: string[];
  score: number;
}

/**
 * The ranking's constants, set on the tune half of bench/search-questions-real.json (the
 * held-out half was not looked at) with the project's queries of bench/search-queries.json kept.
 */
export const RANKING = {
  /** Field weights: page title, section heading, page description, page keywords, section text. */
  weights: [3, 2, 1.5, 2, 1],
  /** BM25's length normalization and term-frequency saturation. */
  b: 0.75,
  k1: 1.2,
  /** How much a term counts that only starts with the word being typed, or is one edit away from an unknown word. */
  prefixFactor: 0.7,
  fuzzyFactor: 0.5,
  /** The word being typed stands for the terms it starts once it has this many letters, at most this many terms per index (the shortest). */
  prefixMinLength: 3,
  prefixMost: 20,
  /** Score multiplier per share of the query's words found in the unit (1: all words double the score). */
  coverage: 1,
  /** Added per pair of neighbouring query words found side by side in a field: this × field weight × their idf. */
  proximity: 1,
} as const;

/** Loads the parsed JSON of a search-index file. */
export function loadIndexes(json: readonly {documents: SearchDocument[]; index: object}[]): Loaded {
  const zh = new Set<string>();
  const indexes = json.map(({documents, index}, type) => {
    const loaded = lunr.Index.load(index);
    for (const term of Object.keys(loaded.invertedIndex)) if (/\p{Unified_Ideograph}/u.test(term[0] ?? '')) zh.add(term);
    return {type, documents, byId: new Map(documents.map((doc) => [doc.i.toString(), doc])), index: loaded};
  });
  return {indexes, zhDictionary: [...zh], known: new Map()};
}

/** The token as lunr stores it (English stemmer). */
export function stem(token: string): string {
  return lunr.stemmer(new lunr.Token(token, {})).toString();
}

/** A section of a page (the part before its first heading is the intro): its heading and text documents. */
interface Unit {
  page: PageEntry;
  heading?: SearchDocument;
  content?: SearchDocument;
  headingLength: number;
  contentLength: number;
}

interface PageEntry {
  id: number;
  title?: SearchDocument;
  description?: SearchDocument;
  keywords?: SearchDocument;
  /** Lengths in words of the title, description and keywords. */
  lengths: [number, number, number];
  intro: Unit;
  units: Unit[];
}

/** The documents of one loaded search-index file grouped into pages and sections. */
interface Sections {
  pages: Map<number, PageEntry>;
  /** Per index type, document id → its section (title, description and keywords: the page's intro). */
  units: Map<string, Unit>[];
  /** Mean length in words per field (title, heading, description, keywords, text). */
  averages: number[];
}

const sectionsCache = new WeakMap<Loaded, Sections>();

function words(text: unknown): number {
  return typeof text === 'string' ? Math.max(1, text.split(/\s+/).filter(Boolean).length) : 1;
}

function mean(values: number[]): number {
  return values.length === 0 ? 1 : values.reduce((a, b) => a + b, 0) / values.length;
}

/** Groups the documents of the five indexes into pages and their sections (once per loaded file). */
function sections(loaded: Loaded): Sections {
  const cached = sectionsCache.get(loaded);
  if (cached) return cached;
  const pages = new Map<number, PageEntry>();
  const byAnchor = new Map<string, Unit>();
  const pageOf = (id: number): PageEntry => {
    let entry = pages.get(id);
    if (!entry) {
      const intro = {headingLength: 1, contentLength: 1} as Unit;
      entry = {id, lengths: [1, 1, 1], intro, units: [intro]};
      intro.page = entry;
      pages.set(id, entry);
    }
    return entry;
  };
  const unitOf = (entry: PageEntry, hash: string): Unit => {
    if (!hash) return entry.intro;
    let unit = byAnchor.get(`${entry.id}${hash}`);
    if (!unit) {
      unit = {page: entry, headingLength: 1, contentLength: 1};
      byAnchor.set(`${entry.id}${hash}`, unit);
      entry.units.push(unit);
    }
    return unit;
  };
  const units = loaded.indexes.map(() => new Map<string, Unit>());
  for (const {type, documents} of loaded.indexes) {
    for (const document of documents) {
      const entry = pageOf(type === 0 ? document.i : (document.p ?? document.i));
      let unit = entry.intro;
      if (type === 0) {
        entry.title = document;
        entry.lengths[0] = words(document.t);
      } else if (type === 2 || type === 3) {
        if (type === 2) entry.description = document;
        else entry.keywords = document;
        entry.lengths[type - 1] = words(document.t);
      } else {
        unit = unitOf(entry, document.h ?? '');
        if (type === 1) {
          unit.heading = document;
          unit.headingLength = words(document.t);
        } else {
          unit.content = document;
          unit.contentLength = words(document.t);
        }
      }
      units[type].set(String(document.i), unit);
    }
  }
  const entries = [...pages.values()];
  const all = entries.flatMap((entry) => entry.units);
  const result: Sections = {
    pages,
    units,
    averages: [
      mean(entries.map((entry) => entry.lengths[0])),
      mean(all.filter((unit) => unit.heading).map((unit) => unit.headingLength)),
      mean(entries.map((entry) => entry.lengths[1])),
      mean(entries.map((entry) => entry.lengths[2])),
      mean(all.filter((unit) => unit.content).map((unit) => unit.contentLength)),
    ],
  };
  sectionsCache.set(loaded, result);
  return result;
}

/** lunr's posting of a term in one index: document id → the term's positions ([start, length]) there. */
type Posting = Record<string, {position?: [number, number][]}>;

function posting(item: LoadedIndex, term: string): Posting | undefined {
  return (item.index.invertedIndex[term] as {t?: Posting} | undefined)?.t;
}

/**
 * The index terms a query word stands for, each with a factor: its stem (and the word itself);
 * for the word being typed also the terms it starts; for a word no index has, the terms one edit
 * away from its stem.
 */
function expand(loaded: Loaded, word: string, typing: boolean): Map<string, number> {
  const found = new Map<string, number>();
  const stemmed = stem(word);
  for (const term of [stemmed, word]) {
    if (loaded.indexes.some(({index}) => term in index.invertedIndex)) found.set(term, 1);
  }
  const add = (set: lunr.TokenSet, factor: number, most = Infinity) => {
    for (const {index} of loaded.indexes) {
      const terms = index.tokenSet.intersect(set).toArray();
      if (terms.length > most) terms.sort((x, y) => x.length - y.length).length = most;
      for (const term of terms) if (!found.has(term)) found.set(term, factor);
    }
  };
  if (typing && word.length >= RANKING.prefixMinLength) add(lunr.TokenSet.fromString(`${word}*`), RANKING.prefixFactor, RANKING.prefixMost);
  if (found.size === 0 && stemmed.length > 3) add(lunr.TokenSet.fromFuzzyString(stemmed, 1), RANKING.fuzzyFactor);
  return found;
}

/** What the query's words hit in one section: per word, the term frequency in each field, and where. */
interface Hits {
  /** Per query word: term frequency in title, heading, description, keywords, text. */
  frequencies: Map<number, number[]>;
  /** Per field * 100 + query word: the character spans of its occurrences. */
  spans: Map<number, [number, number][]>;
}

/**
 * Ranks the sections of a docs version for a query and returns them as results: each page's best
 * section first, in score order, then the other sections that matched.
 *
 * @param loaded The indexes of the docs version.
 * @param words The query's words that some index knows, stop words left out (unless all are).
 * @param typing The last word when it may be unfinished (the reader is still typing it).
 * @param tokens The query's tokens, passed on for highlighting.
 * @param limit The most results to return.
 * @param skip Ids of documents already shown (a page's title, description and keywords share its id);
 *   their sections still count, they are not shown again.
 * @returns The results.
 */
export function rankSections(
  loaded: Loaded,
  words: readonly string[],
  typing: string | undefined,
  tokens: string[],
  limit: number,
  skip: ReadonlySet<string> = new Set(),
): Result[] {
  const tree = sections(loaded);
  const hits = new Map<Unit, Hits>();
  const matchedTerms = new Map<string, Set<string>>();
  const idf = words.map((word, wordIndex) => {
    const pagesWithWord = new Set<number>();
    for (const [term, factor] of expand(loaded, word, word === typing && wordIndex === words.length - 1)) {
      for (const item of loaded.indexes) {
        for (const [ref, {position}] of Object.entries(posting(item, term) ?? {})) {
          const unit = tree.units[item.type].get(ref);
          if (!unit) continue;
          pagesWithWord.add(unit.page.id);
          const key = `${item.type}:${ref}`;
          let matched = matchedTerms.get(key);
          if (!matched) matchedTerms.set(key, (matched = new Set()));
          matched.add(term);
          let hit = hits.get(unit);
          if (!hit) hits.set(unit, (hit = {frequencies: new Map(), spans: new Map()}));
          let fields = hit.frequencies.get(wordIndex);
          if (!fields) hit.frequencies.set(wordIndex, (fields = [0, 0, 0, 0, 0]));
          fields[item.type] += (position?.length ?? 1) * factor;
          let spans = hit.spans.get(item.type * 100 + wordIndex);
          if (!spans) hit.spans.set(item.type * 100 + wordIndex, (spans = []));
          for (const [start, length] of position ?? []) spans.push([start, start + length]);
        }
      }
    }
    const n = pagesWithWord.size;
    return Math.log(1 + (tree.pages.size - n + 0.5) / (n + 0.5));
  });
  const {weights, b, k1} = RANKING;
  const score = (unit: Unit): number => {
    const own = hits.get(unit);
    // Title, description and keywords are the page's, found on its intro.
    const pageHits = hits.get(unit.page.intro);
    const lengths = [unit.page.lengths[0], unit.headingLength, unit.page.lengths[1], unit.page.lengths[2], unit.contentLength];
    let total = 0;
    let matched = 0;
    words.forEach((_, wordIndex) => {
      let weighted = 0;
      for (let field = 0; field < 5; field += 1) {
        const source = field === 1 || field === 4 ? own : pageHits;
        const tf = source?.frequencies.get(wordIndex)?.[field] ?? 0;
        if (tf > 0) weighted += (weights[field] * tf) / (1 - b + (b * lengths[field]) / tree.averages[field]);
      }
      if (weighted > 0) {
        matched += 1;
        total += (idf[wordIndex] * weighted * (k1 + 1)) / (k1 + weighted);
      }
    });
    for (let wordIndex = 0; wordIndex + 1 < words.length; wordIndex += 1) {
      for (let field = 0; field < 5; field += 1) {
        const source = field === 1 || field === 4 ? own : pageHits;
        const left = source?.spans.get(field * 100 + wordIndex);
        const right = source?.spans.get(field * 100 + wordIndex + 1);
        if (left && right && left.some(([, end]) => right.some(([start]) => start >= end && start - end <= 3))) {
          total += RANKING.proximity * weights[field] * (idf[wordIndex] + idf[wordIndex + 1]);
          break;
        }
      }
    }
    return total * (1 + (RANKING.coverage * matched) / words.length);
  };
  const ranked = [...hits.keys()].map((unit) => ({unit, score: score(unit)})).sort((x, y) => y.score - x.score);

  const [titles] = loaded.indexes;
  const results: Result[] = [];
  const shown = new Set(skip);
  const show = (unit: Unit, unitScore: number) => {
    // The section's document that matched the most terms: for the intro, the page's title,
    // keywords, description or the text before the first heading; else the heading or the text.
    const options: [number, SearchDocument | undefined][] =
      unit === unit.page.intro
        ? [
            [0, unit.page.title],
            [3, unit.page.keywords],
            [2, unit.page.description],
            [4, unit.content],
          ]
        : [
            [1, unit.heading],
            [4, unit.content],
          ];
    let type = -1;
    let document: SearchDocument | undefined;
    let best = 0;
    for (const [kind, option] of options) {
      const count = option ? (matchedTerms.get(`${kind}:${option.i}`)?.size ?? 0) : 0;
      if (count > best) [type, document, best] = [kind, option, count];
    }
    if (!document || results.length >= limit || shown.has(String(document.i))) return;
    shown.add(String(document.i));
    const metadata: Record<string, object> = {};
    for (const term of matchedTerms.get(`${type}:${document.i}`) ?? []) {
      const positions = posting(loaded.indexes[type], term)?.[String(document.i)];
      if (positions) metadata[term] = {t: positions};
    }
    results.push({document, type, page: type !== 0 && titles.byId.get(String(document.p)), metadata, tokens, score: unitScore});
  };
  const pagesShown = new Set<PageEntry>();
  for (const {unit, score: unitScore} of ranked) {
    if (pagesShown.has(unit.page)) continue;
    pagesShown.add(unit.page);
    show(unit, unitScore);
  }
  for (const {unit, score: unitScore} of ranked) show(unit, unitScore);
  return results;
}
