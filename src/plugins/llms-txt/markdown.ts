import type {Element, ElementContent, Root, RootContent} from 'hast';
import type {Code} from 'mdast';
import {fromHtml} from 'hast-util-from-html';
import {select, selectAll} from 'hast-util-select';
import {toMdast, type Handle} from 'hast-util-to-mdast';
import {toText} from 'hast-util-to-text';
import remarkGfm from 'remark-gfm';
import remarkStringify from 'remark-stringify';
import {unified} from 'unified';

/** What {@link docHtmlToMarkdown} needs besides the HTML. */
export interface MarkdownPageInfo {
  /** The doc's title (front matter `title`, else its first heading). */
  title: string;
  /** The doc's description (front matter `description`), or `''`. */
  description: string;
  /**
   * Turns an `href` of the page into the URL the Markdown should hold, e.g. `/api/adb/sync/` into
   * `https://docs.tangoapp.dev/api/adb/sync.md`. Called for every link and image source.
   */
  resolveUrl: (href: string) => string;
}

/** The Markdown twin of a doc page is not a doc page of this site. */
export class NotADocPageError extends Error {
  constructor() {
    super('No `.theme-doc-markdown` element: the HTML is not a doc page built by theme-classic.');
    this.name = 'NotADocPageError';
  }
}

const hasClass = (node: Element, name: string): boolean => {
  const value = node.properties.className;
  return Array.isArray(value) && value.some((entry) => String(entry) === name || String(entry).startsWith(`${name}_`));
};

const element = (tagName: string, properties: Element['properties'], children: ElementContent[]): Element => ({
  type: 'element',
  tagName,
  properties,
  children,
});

const text = (value: string): ElementContent => ({type: 'text', value});

/**
 * A theme-classic code block (`div.theme-code-block`: optional title, `pre > code > .token-line`s,
 * copy button) as a plain `<pre data-title><code class="language-x">` with one line per token line.
 */
function plainCodeBlock(block: Element): Element {
  const classes = (block.properties.className as string[] | undefined) ?? [];
  const language = classes.find((name) => String(name).startsWith('language-'));
  const title = selectAll('div', block).find((node) => hasClass(node, 'codeBlockTitle'));
  const lines = selectAll('.token-line', block).map((line) =>
    line.children
      .filter((child) => !(child.type === 'element' && child.tagName === 'br'))
      // A text node's own value: toText() gives '' for one that is only spaces (an indent).
      .map((child) => (child.type === 'text' ? child.value : toText(child, {whitespace: 'pre'})))
      .join(''),
  );
  const source = lines.length > 0 ? lines.join('\n') : toText(select('pre', block) ?? block, {whitespace: 'pre'});
  return element('pre', title ? {dataTitle: toText(title).trim()} : {}, [
    element('code', {className: language ? [language] : []}, [text(source)]),
  ]);
}

/** Tab labels that are one sample in two languages or one command for three package managers. */
const SAME_CONTENT_TABS = [
  ['TypeScript', 'JavaScript'],
  ['npm', 'Yarn', 'pnpm'],
];

/**
 * A tab set as Markdown-shaped HTML. TS/JS tabs and package-manager tabs hold one sample written
 * several ways: only the first tab (TypeScript, npm) is kept. Other tab sets keep every panel, each
 * after its label in bold.
 */
function flattenTabs(tabs: Element): ElementContent[] {
  const labels = selectAll('[role=tab]', tabs).map((tab) => toText(tab).trim());
  const panels = selectAll('[role=tabpanel]', tabs);
  if (SAME_CONTENT_TABS.some((set) => labels.length === set.length && set.every((label, index) => labels[index] === label))) {
    return panels[0]?.children ?? [];
  }
  return panels.flatMap((panel, index) => [element('p', {}, [element('strong', {}, [text(labels[index] ?? '')])]), ...panel.children]);
}

/** An admonition (`div.theme-admonition`) as a blockquote that starts with its title in bold. */
function admonitionQuote(admonition: Element): Element {
  const heading = selectAll('div', admonition).find((node) => hasClass(node, 'admonitionHeading'));
  const content = selectAll('div', admonition).find((node) => hasClass(node, 'admonitionContent'));
  const title = heading ? toText(heading).trim() : '';
  const label = title === title.toLowerCase() ? title.charAt(0).toUpperCase() + title.slice(1) : title;
  return element('blockquote', {}, [element('p', {}, [element('strong', {}, [text(label)])]), ...(content?.children ?? [])]);
}

/**
 * Rewrites the page's content element in place, so that `hast-util-to-mdast` gives clean Markdown.
 * Dropped: heading anchors, buttons, icons, the interactive chooser (its `<noscript>` tree is used),
 * dark-mode copies of themed images. Replaced: code blocks, tab sets, admonitions, diagrams (by
 * their alternative text), table captions (a bold line above), lists inside table cells (`(a; b)`),
 * links and image sources (through `resolveUrl`).
 */
function simplify(parent: Element | Root, info: MarkdownPageInfo): void {
  const out: RootContent[] = [];
  for (const child of parent.children) {
    if (child.type === 'comment' || child.type === 'doctype') {
      continue;
    }
    if (child.type !== 'element') {
      out.push(child);
      continue;
    }
    const node = child;
    if (node.tagName === 'noscript') {
      // The chooser (`<Question>`) prints its whole tree of questions and answers here (see
      // src/components/Question); hast-util-from-html parses it as a browser without scripting
      // would, into elements.
      const content = element('div', {}, node.children);
      simplify(content, info);
      out.push(...content.children);
      continue;
    }
    if (
      node.tagName === 'button' ||
      node.tagName === 'svg' ||
      node.tagName === 'script' ||
      node.tagName === 'style' ||
      hasClass(node, 'hash-link') ||
      hasClass(node, 'themedComponent--dark') ||
      (node.properties.role === 'group' && hasClass(node, 'question'))
    ) {
      continue;
    }
    if (hasClass(node, 'theme-code-block')) {
      out.push(plainCodeBlock(node));
      continue;
    }
    if (hasClass(node, 'tabs-container')) {
      const content = element('div', {}, flattenTabs(node));
      simplify(content, info);
      out.push(...content.children);
      continue;
    }
    if (hasClass(node, 'theme-admonition')) {
      const quote = admonitionQuote(node);
      simplify(quote, info);
      out.push(quote);
      continue;
    }
    if (node.tagName === 'img') {
      const alt = String(node.properties.alt ?? '');
      if (hasClass(node, 'diagram')) {
        out.push(element('p', {}, [element('em', {}, [text(`Diagram: ${alt}`)])]));
      } else {
        out.push(element('img', {src: info.resolveUrl(String(node.properties.src ?? '')), alt}, []));
      }
      continue;
    }
    if (node.tagName === 'table') {
      // A Markdown table has no caption: it becomes a bold line above the table.
      const caption = node.children.find((cell): cell is Element => cell.type === 'element' && cell.tagName === 'caption');
      if (caption) {
        node.children = node.children.filter((cell) => cell !== caption);
        out.push(element('p', {}, [element('strong', {}, [text(toText(caption).trim())])]));
      }
    }
    if (
      (node.tagName === 'td' || node.tagName === 'th') &&
      node.children.some((cell) => cell.type === 'element' && cell.tagName === 'ul')
    ) {
      // A Markdown table cell holds one line: a list in it (the browser-support notes) becomes "(a; b)".
      node.children = node.children.flatMap((cell): ElementContent[] =>
        cell.type === 'element' && cell.tagName === 'ul'
          ? [
              text(
                ` (${selectAll('li', cell)
                  .map((item) => toText(item).trim())
                  .join('; ')})`,
              ),
            ]
          : [cell],
      );
    }
    if (node.tagName === 'a' && typeof node.properties.href === 'string') {
      node.properties.href = info.resolveUrl(node.properties.href);
    }
    simplify(node, info);
    out.push(node);
  }
  parent.children = out as typeof parent.children;
}

/** `pre` with a `data-title` becomes a fenced block whose info string is `lang title="…"`. */
const preWithTitle: Handle = (state, node: Element): Code => {
  const code = node.children.find((child): child is Element => child.type === 'element' && child.tagName === 'code');
  const language = ((code?.properties.className as string[] | undefined) ?? []).find((name) => String(name).startsWith('language-'));
  const title = node.properties.dataTitle;
  const result: Code = {
    type: 'code',
    lang: language ? String(language).slice('language-'.length) : null,
    meta: typeof title === 'string' && title !== '' ? `title=${JSON.stringify(title)}` : null,
    value: toText(code ?? node, {whitespace: 'pre'}).replace(/\n+$/, ''),
  };
  state.patch(node, result);
  return result;
};

/**
 * The part of a built page that holds the doc content, from the `.theme-doc-markdown` element to the
 * end of its `<article>` (the whole page when the markers are missing), with the token spans of the
 * highlighted code (`<span class="l3 d5">`, src/rehype/highlight.ts) replaced by their text, which
 * is all they hold. The navbar, sidebar and footer, and those spans, would only slow the parser.
 */
function contentSlice(html: string): string {
  const marker = html.search(/<div class="?theme-doc-markdown/);
  const end = marker < 0 ? -1 : html.indexOf('</article>', marker);
  const content = marker < 0 || end < 0 ? html : html.slice(marker, end);
  return content.replace(/<span class="?(?:[ld](?:\d+|i) ?)+"?>([^<]*)<\/span>/g, '$1');
}

/**
 * The Markdown twin of one built doc page.
 *
 * Input: the page's HTML as written by `docusaurus build` (theme-classic 3.10 markup) and
 * {@link MarkdownPageInfo}. Output: Markdown text: `# title`, the description as a blockquote, then
 * the content of `.theme-doc-markdown` (its own `<h1>` dropped), in GitHub-flavoured Markdown with
 * tables, fenced code (`ts title="x.ts"`), admonitions as blockquotes, each TypeScript sample once
 * (the generated JavaScript tab and the Yarn/pnpm variants of install commands are left out), and
 * no HTML tags. Errors: throws {@link NotADocPageError} when the HTML has no doc content.
 * Facts: the markup's class names come from theme-classic 3.10.2 (`CodeBlock`, `Tabs`,
 * `Admonition`, `Heading`) and from this site's components (`Question`, diagrams' `ThemedImage`).
 */
export function docHtmlToMarkdown(html: string, info: MarkdownPageInfo): string {
  const tree = fromHtml(contentSlice(html), {fragment: true});
  const content = selectAll('div', tree).find((node) => hasClass(node, 'theme-doc-markdown'));
  if (!content) {
    throw new NotADocPageError();
  }
  content.children = content.children.filter((child) => !(child.type === 'element' && child.tagName === 'header' && select('h1', child)));
  simplify(content, info);
  const mdast = toMdast(element('div', {}, content.children as ElementContent[]), {handlers: {pre: preWithTitle}});
  const body = unified()
    .use(remarkGfm)
    .use(remarkStringify, {bullet: '-', fences: true, resourceLink: true, rule: '-', listItemIndent: 'one'})
    .stringify(mdast as never);
  const head = [`# ${info.title}`];
  if (info.description) {
    head.push(`> ${info.description}`);
  }
  return `${head.join('\n\n')}\n\n${String(body).trim()}\n`;
}
