import path from 'node:path';
import type {Config} from '@docusaurus/types';
import type * as Preset from '@docusaurus/preset-classic';
import type {Options as DocsOptions} from '@docusaurus/plugin-content-docs';
import type {PluginOptions as SearchOptions} from '@easyops-cn/docusaurus-search-local';
import npm2yarn from '@docusaurus/remark-plugin-npm2yarn';
import {themes as prismThemes} from 'prism-react-renderer';
import {accessiblePrismTheme} from './src/utils/prism-contrast';
import tsToJsTabs from './src/remark/ts-to-js-tabs';
import sampleOutput from './src/remark/sample-output';
import browserSupport from './src/remark/browser-support';
import pmInstallOptions from './src/remark/pm-install-options';
import scrcpyVersions from './src/remark/scrcpy-versions';
import scrcpyInheritance from './src/remark/scrcpy-inheritance';
import {remarkDiagrams} from './src/remark/diagrams';
import rehypeHighlight, {tokenStylesheet} from './src/rehype/highlight.ts';
import colorModeGuard from './src/plugins/color-mode-guard';
import llmsTxt from './src/plugins/llms-txt/index.ts';
import {docsVersions, LATEST} from './src/versions/index.ts';

// ---------------------------------------------------------------------------
// Environment switches, all read at build time.
// GTAG_TRACKING_ID     Google tag ID; without it analytics is off and no request leaves the page.
// TANGO_TEST_ROUTES=1  adds /__test__/crash/, a page that throws, for the browser tests only.
// TANGO_LATEST_ONLY=1  builds only the latest docs version (the analytics tests' build, which
//                      needs no other; about half the build time).
// TANGO_ONLY_DOCS=a,b  builds only these docs (globs relative to each docs folder, as the docs
//                      plugin's `include`); links to the docs left out are not checked. The
//                      analytics tests' build takes the four sidebars' home pages: 12 CPU-s against
//                      58 for the whole latest version on the 2-core CI machine.
// ---------------------------------------------------------------------------
const gtagTrackingId = process.env.GTAG_TRACKING_ID?.trim() || undefined;
const testRoutes = process.env.TANGO_TEST_ROUTES === '1';
const latestOnly = process.env.TANGO_LATEST_ONLY === '1';
const onlyDocsGlobs = (process.env.TANGO_ONLY_DOCS ?? '')
  .split(',')
  .map((glob) => glob.trim())
  .filter(Boolean);
const onlyDocs = onlyDocsGlobs.length > 0 ? onlyDocsGlobs : undefined;
/** Broken links fail the build, except in a build of a few docs (TANGO_ONLY_DOCS), whose links reach docs left out. */
const onBroken = onlyDocs ? 'ignore' : 'throw';

// Versions: src/versions/index.ts (CURRENT_VERSION, the version docs/ documents) and versions.json
// (the frozen ones). The latest release is served at `/`, every older one under `/{version}/` with
// the "unmaintained" banner; once CURRENT_VERSION itself has been frozen, docs/ becomes the
// unreleased "Next" at `/next/`.
const docsVersionOptions: NonNullable<DocsOptions['versions']> = Object.fromEntries(
  docsVersions().map((version) => [
    version.name,
    version.isNext
      ? {label: version.label, path: 'next', banner: 'unreleased', noIndex: true}
      : {label: version.label, path: version.isLatest ? '/' : version.name, banner: version.isLatest ? 'none' : 'unmaintained'},
  ]),
);

/**
 * The code colour themes: the stock GitHub (light) and Dracula (dark) Prism themes, with every token
 * colour brought to 4.5:1 on the block and on highlighted lines (--docusaurus-highlighted-code-line-bg
 * in src/css/custom.css). Used at build time by src/rehype/highlight.ts and by the theme's container.
 */
const codeThemes = {
  light: accessiblePrismTheme(prismThemes.github, [0, 0, 0, 0.1]),
  dark: accessiblePrismTheme(prismThemes.dracula, [0, 0, 0, 0.3]),
};

const config = {
  title: 'Tango ADB Development Guide',
  tagline: 'Documentation for Tango ADB library',
  favicon: 'img/favicon.svg',
  url: 'https://docs.tangoapp.dev',
  baseUrl: '/',
  trailingSlash: true,

  future: {
    v4: true,
    // Everything `faster: true` turns on except SSG worker threads. With ~375 pages on 2 cores,
    // the two workers rendered no faster than the main thread (9.0 s vs 8.6 s) but each loaded
    // its own copy of the server bundle: the build's peak went from ~1.38 to ~1.65 GB while they
    // ran (issue #8 budget: 1.5 GB).
    faster: {
      swcJsLoader: true,
      swcJsMinimizer: true,
      swcHtmlMinimizer: true,
      lightningCssMinimizer: true,
      mdxCrossCompilerCache: true,
      rspackBundler: true,
      rspackPersistentCache: true,
      gitEagerVcs: true,
      ssgWorkerThreads: false,
    },
  },

  onBrokenLinks: onBroken,
  onBrokenAnchors: onBroken,
  markdown: {
    hooks: {
      onBrokenMarkdownLinks: onBroken,
      onBrokenMarkdownImages: onBroken,
    },
  },

  i18n: {
    defaultLocale: 'en',
    locales: ['en'],
    localeConfigs: {en: {direction: 'ltr', htmlLang: 'en'}},
  },

  presets: [
    [
      'classic',
      {
        docs: {
          routeBasePath: '/',
          sidebarPath: './sidebars.ts',
          breadcrumbs: true,
          lastVersion: LATEST.name,
          versions: docsVersionOptions,
          ...(latestOnly && {onlyIncludeVersions: [LATEST.name]}),
          ...(onlyDocs && {include: onlyDocs}),
          // Before Docusaurus resolves file links: the outputs' note links to a page by its file.
          beforeDefaultRemarkPlugins: [sampleOutput],
          remarkPlugins: [
            remarkDiagrams,
            [npm2yarn, {sync: true}],
            pmInstallOptions,
            scrcpyVersions,
            scrcpyInheritance,
            tsToJsTabs,
            browserSupport,
          ],
          // Every code block highlighted at build time: no highlighter runs in the browser.
          rehypePlugins: [[rehypeHighlight, codeThemes]],
        } satisfies DocsOptions,
        blog: false,
        pages: false,
        theme: {
          customCss: './src/css/custom.css',
        },
        sitemap: {
          lastmod: null,
          changefreq: null,
          priority: null,
          ignorePatterns: ['/__test__/**'],
        },
        gtag: gtagTrackingId ? {trackingID: gtagTrackingId, anonymizeIP: true} : undefined,
      } satisfies Preset.Options,
    ],
  ],

  themes: [
    [
      '@easyops-cn/docusaurus-search-local',
      {
        hashed: true,
        language: ['en'],
        docsRouteBasePath: '/',
        docsDir: ['docs', 'versioned_docs'],
        indexBlog: false,
        indexPages: false,
        searchResultLimits: 8,
        searchResultContextMaxLength: 50,
        searchBarShortcut: true,
        searchBarShortcutHint: true,
      } satisfies Partial<SearchOptions>,
    ],
  ],

  clientModules: ['./src/clientModules/safe-hash.ts', './src/clientModules/idle-prefetch.ts', './src/clientModules/progress-bar.ts'],
  plugins: [
    // Only `light` or `dark` reaches html[data-theme], whatever is stored or in the query string.
    colorModeGuard,
    // After the build: a Markdown twin beside every doc page, and llms.txt / llms-full.txt per version.
    // TANGO_LLMS_TXT=off leaves them out: bench/build.ts builds once without them to time what they add.
    process.env.TANGO_LLMS_TXT !== 'off' && llmsTxt,
    // Our modules in place of two that the theme and core import (webpack aliases):
    // - prism-react-renderer: an empty Prism, since code is highlighted at build time (see src/prism/);
    // - @docusaurus/ComponentCreator: route components built on first use, not all ~375 at load
    //   (see src/routes/).
    function standInsPlugin(context) {
      return {
        name: 'tango-stand-ins',
        configureWebpack() {
          return {
            resolve: {
              alias: {
                'prism-react-renderer$': path.join(context.siteDir, 'src/prism/prism-react-renderer.ts'),
                '@docusaurus/ComponentCreator': path.join(context.siteDir, 'src/routes/ComponentCreator.tsx'),
              },
            },
          };
        },
      };
    },
    // Our search worker in place of the search plugin's (src/search/worker.ts): words no page uses
    // are dropped and pasted sentences fall back to the pages matching the most words.
    function searchWorkerPlugin(context, _options) {
      return {
        name: 'tango-search-worker',
        configureWebpack(_config, isServer, {currentBundler}) {
          if (isServer) return {};
          const worker = path.join(context.siteDir, 'src/search/worker.ts');
          return {
            plugins: [
              new currentBundler.instance.NormalModuleReplacementPlugin(
                /^\.\/worker\.js$/,
                (resource: {context?: string; request: string}) => {
                  if (resource.context?.includes(path.join('docusaurus-search-local', 'dist'))) resource.request = worker;
                },
              ),
            ],
          };
        },
      };
    },
    // The colours of the code token classes that src/rehype/highlight.ts writes (about 1 KB).
    function codeColoursPlugin() {
      return {
        name: 'tango-code-colours',
        injectHtmlTags() {
          return {headTags: [{tagName: 'style', innerHTML: tokenStylesheet(codeThemes)}]};
        },
      };
    },
    testRoutes &&
      function testRoutesPlugin() {
        return {
          name: 'tango-test-routes',
          async contentLoaded({actions}) {
            actions.addRoute({
              path: '/__test__/crash/',
              component: '@site/tests/support/CrashPage.tsx',
              exact: true,
            });
          },
        };
      },
  ],

  themeConfig: {
    image: 'img/logo.svg',
    colorMode: {
      defaultMode: 'light',
      respectPrefersColorScheme: true,
    },
    announcementBar: {
      id: 'upgrade-2.0.0',
      content:
        'Tango ADB 2.0.0 redesigns subprocesses and device observers. Coming from 1.1.0? Read <a href="/tango/upgrade/">Upgrade from 1.1.0</a>.',
      isCloseable: true,
      // Colours from src/css/custom.css, so that the bar follows the colour mode (AA in both).
      backgroundColor: 'var(--tango-announcement-background)',
      textColor: 'var(--tango-announcement-color)',
    },
    navbar: {
      title: 'Tango ADB',
      logo: {alt: 'Tango ADB logo', src: 'img/logo.svg'},
      items: [
        {type: 'doc', docId: 'tango/index', label: 'Guide', position: 'left'},
        {type: 'doc', docId: 'api/index', label: 'API', position: 'left'},
        {type: 'doc', docId: 'scrcpy/index', label: 'Scrcpy', position: 'left'},
        {type: 'doc', docId: 'internal/index', label: 'Internal', position: 'left'},
        {type: 'docsVersionDropdown', position: 'right'},
        {href: 'https://github.com/yume-chan/ya-webadb', label: 'Source code', position: 'right'},
        {type: 'search', position: 'right'},
      ],
    },
    docs: {
      sidebar: {hideable: false, autoCollapseCategories: false},
    },
    footer: {
      style: 'dark',
      links: [
        {
          title: 'Links',
          items: [
            {label: 'Tango Web App', href: 'https://tangoapp.dev'},
            {label: 'OpenCollective', href: 'https://opencollective.com/ya-webadb'},
          ],
        },
        {
          title: 'Community',
          items: [
            {label: 'GitHub', href: 'https://github.com/yume-chan/ya-webadb'},
            {label: 'Reddit', href: 'https://www.reddit.com/r/tango_adb'},
            {label: 'Discord', href: 'https://discord.gg/26k3ttC2PN'},
          ],
        },
      ],
      copyright: `Copyright © 2021-${new Date().getFullYear()} Tango ADB. Built with Docusaurus.`,
    },
    prism: {
      // Code is highlighted at build time with these themes (src/rehype/highlight.ts); the theme
      // reads their plain colour and background for the code block container.
      theme: codeThemes.light,
      darkTheme: codeThemes.dark,
      // No grammar is loaded in the browser (src/theme/prism-include-languages.ts is a no-op).
      additionalLanguages: [],
    },
  } satisfies Preset.ThemeConfig,
} satisfies Config;

export default config;
