import {test} from 'node:test';
import assert from 'node:assert/strict';
import {docHtmlToMarkdown, NotADocPageError} from '../../src/plugins/llms-txt/markdown.ts';
import {llmsTxt, type LlmsVersion} from '../../src/plugins/llms-txt/index.ts';
import {twinPath} from '../../src/utils/twin-path.ts';

/** A code block as the site renders it (src/theme/CodeBlock: lines of token spans from the build, <br>, copy button). */
function codeBlock(language: string, lines: string[], title?: string): string {
  const body = lines.map((line) => `<div class=token-line><span class="l0 d1">${line}</span><br/></div>`).join('');
  return (
    `<div class="language-${language} codeBlockContainer_Ckt0 theme-code-block">` +
    (title ? `<div class=codeBlockTitle_OeMC>${title}</div>` : '') +
    `<div class=codeBlockContent_QJqH><pre class="prism-code language-${language}"><code class=codeBlockLines_e6Vv>${body}</code></pre>` +
    `<div class=buttonGroup_M5ko><button type=button aria-label="Copy code to clipboard">Copy</button></div></div></div>`
  );
}

function tabs(labels: string[], panels: string[]): string {
  return (
    `<div class="theme-tabs-container tabs-container tabList__CuJ"><ul role=tablist class="tabs">` +
    labels.map((label) => `<li role=tab class="tabs__item">${label}`).join('') +
    `</ul><div class=margin-top--md>` +
    panels.map((panel) => `<div role=tabpanel class=tabItem_Ymn6>${panel}</div>`).join('') +
    `</div></div>`
  );
}

function page(content: string): string {
  return `<!doctype html><html><head><title>x</title></head><body><nav>Menu</nav><main><article><div class="theme-doc-markdown markdown"><header><h1>Stat</h1></header>${content}</div></article></main></body></html>`;
}

const info = {
  title: 'lstat/stat',
  description: 'Read the metadata of a path.',
  resolveUrl: (href: string) => `https://docs.example${href}`,
};

test('title, description, prose and headings without anchors, buttons or navigation', () => {
  const markdown = docHtmlToMarkdown(
    page(
      '<p>Use <code>stat</code>.</p><h2 class=anchor id=errors>Errors<a href=#errors class=hash-link aria-label="Direct link">​</a></h2><p>None.</p>',
    ),
    info,
  );
  assert.equal(markdown, '# lstat/stat\n\n> Read the metadata of a path.\n\nUse `stat`.\n\n## Errors\n\nNone.\n');
});

test('a code block becomes one fence with its language and title; TS/JS tabs keep TypeScript only', () => {
  const markdown = docHtmlToMarkdown(
    page(
      tabs(
        ['TypeScript', 'JavaScript'],
        [codeBlock('ts', ['const a: number = 1;', '', 'console.log(a);'], 'a.ts'), codeBlock('js', ['const a = 1;'], 'a.js')],
        // An indent is plain text before the first token span, as src/rehype/highlight.ts writes it.
      ).replace('<span class="l0 d1">console', '    <span class="l0 d1">console'),
    ),
    info,
  );
  assert.match(markdown, /```ts title="a\.ts"\nconst a: number = 1;\n\n {4}console\.log\(a\);\n```/);
  assert.doesNotMatch(markdown, /a\.js|const a = 1;|Copy/);
});

test('package-manager tabs keep npm; other tabs keep every panel after its label', () => {
  const install = docHtmlToMarkdown(
    page(
      tabs(
        ['npm', 'Yarn', 'pnpm'],
        [codeBlock('bash', ['npm install x']), codeBlock('bash', ['yarn add x']), codeBlock('bash', ['pnpm add x'])],
      ),
    ),
    info,
  );
  assert.match(install, /```bash\nnpm install x\n```/);
  assert.doesNotMatch(install, /yarn add|pnpm add/);
  const behaviour = docHtmlToMarkdown(page(tabs(['Web', 'Node.js'], ['<p>Asks.</p>', '<p>Lists all.</p>'])), info);
  assert.match(behaviour, /\*\*Web\*\*\n\nAsks\.\n\n\*\*Node\.js\*\*\n\nLists all\./);
});

test('admonitions become blockquotes headed by their title; diagrams their alternative text; links absolute', () => {
  const markdown = docHtmlToMarkdown(
    page(
      '<div class="theme-admonition theme-admonition-info admonition_xJq3"><div class=admonitionHeading_Gvgb><span class=admonitionIcon_Rf37><svg viewBox="0 0 1 1"><path d=""/></svg></span>Equivalent ADB command</div>' +
        '<div class=admonitionContent_BuS1><p>See <a href=/api/adb/sync/>sync</a>.</p></div></div>' +
        '<img src=/diagrams/1.light.svg alt="State diagram: A, B" class="diagram themedComponent_mlkZ themedComponent--light_NVdE">' +
        '<img src=/diagrams/1.dark.svg alt="State diagram: A, B" class="diagram themedComponent_mlkZ themedComponent--dark_xIcU">',
    ),
    info,
  );
  assert.match(markdown, /> \*\*Equivalent ADB command\*\*\n>\n> See \[sync\]\(https:\/\/docs\.example\/api\/adb\/sync\/\)\./);
  assert.equal(markdown.match(/\*Diagram: State diagram: A, B\*/g)?.length, 1);
  assert.doesNotMatch(markdown, /svg|<img|!\[/);
});

test("the chooser's <noscript> tree becomes nested lists, and its buttons are dropped", () => {
  const markdown = docHtmlToMarkdown(
    page(
      '<noscript><div><p><strong>Where?</strong></p><ul><li><p><strong>Web</strong></p><p>Use WebUSB.</p></li><li><p><strong>Node</strong></p><p>Use the server.</p></li></ul></div></noscript>' +
        '<div class=question_ZQjt role=group><p class=title_R5Fg>Where?</p><div class=options_zj5R><button type=button>Web</button><button type=button>Node</button></div><div class=answer_I9g0></div></div>',
    ),
    info,
  );
  assert.match(markdown, /\*\*Where\?\*\*\n\n- \*\*Web\*\*\n\n {2}Use WebUSB\.\n\n- \*\*Node\*\*\n\n {2}Use the server\./);
  assert.equal(markdown.match(/Where\?/g)?.length, 1);
});

test('a table keeps its caption as a bold line, and a list in a cell stays on the row', () => {
  const markdown = docHtmlToMarkdown(
    page(
      '<table><caption>Browser support for <!-- -->Web Streams API<thead><tr><th scope=col>Browser<th scope=col>Since<tbody>' +
        '<tr><th scope=row>Chrome<td><span>59</span><ul><li>ReadableStream since 43<li>pipeTo since 59</ul></table>',
    ),
    info,
  );
  assert.match(markdown, /\*\*Browser support for Web Streams API\*\*\n\n\| Browser \| Since +\|\n/);
  assert.match(markdown, /\| Chrome +\| 59 \(ReadableStream since 43; pipeTo since 59\) \|/);
});

test('HTML without doc content is refused', () => {
  assert.throws(() => docHtmlToMarkdown('<html><body><main><p>404</p></main></body></html>', info), NotADocPageError);
});

test('twin paths sit beside the page', () => {
  assert.equal(twinPath('/api/adb/sync/stat/'), '/api/adb/sync/stat.md');
  assert.equal(twinPath('/1.1.0/'), '/1.1.0.md');
  assert.equal(twinPath('/'), '/index.md');
});

test('llms.txt: title, summary, one section per sidebar, each page once with its twin URL and description', () => {
  const current: LlmsVersion = {
    name: '2.0.0',
    path: '/',
    sections: [
      {title: 'Guide', pages: [{title: 'Quick start', description: 'Install it.', permalink: '/'}]},
      {title: 'API', pages: [{title: 'stat', description: '', permalink: '/api/adb/sync/stat/'}]},
    ],
  };
  const old: LlmsVersion = {name: '1.1.0', path: '/1.1.0/', sections: []};
  const text = llmsTxt(current, [current, old], 'https://docs.example');
  assert.match(
    text,
    /^# Tango ADB\n\n> .+\n\n.*\[llms-full\.txt\]\(https:\/\/docs\.example\/llms-full\.txt\).*\[1\.1\.0\]\(https:\/\/docs\.example\/1\.1\.0\/llms\.txt\)/,
  );
  assert.match(
    text,
    /\n## Guide\n\n- \[Quick start\]\(https:\/\/docs\.example\/index\.md\): Install it\.\n\n## API\n\n- \[stat\]\(https:\/\/docs\.example\/api\/adb\/sync\/stat\.md\)\n$/,
  );
});
