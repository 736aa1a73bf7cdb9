import type {Page} from '@playwright/test';

/**
 * Pages whose code blocks tests/e2e/code-blocks.spec.ts compares with tests/e2e/data/code-blocks.json:
 * every kind of block (TS/JS tabs, npm/yarn/pnpm tabs, titles, highlighted lines, signatures,
 * shell, JSON, text, TSX) in all four versions.
 */
export const CODE_BLOCK_PAGES = [
  '/',
  '/api/adb/sync/stat/',
  '/tango/server/transport/',
  '/tango/web-stream/websocket/',
  '/scrcpy/',
  '/scrcpy/video/web-codecs/',
  '/internal/packet/',
  '/1.1.0/api/bin/pm/install/',
  '/1.0.0/tango/daemon/credential-store/',
  '/0.0.24/tango/daemon/usb/create-connection/',
];

/** What a reader sees of one code block. */
export interface CodeBlockView {
  /** The `language-x` class of the block, e.g. `language-ts`. */
  language: string;
  title: string | null;
  /** The text of each line. */
  lines: string[];
  /** 1-based numbers of the highlighted lines. */
  highlighted: number[];
  copyButton: boolean;
}

/**
 * Reads every code block of the open (hydrated) page's content, hidden tab panels included.
 * Input: a Playwright page. Output: one {@link CodeBlockView} per `.theme-code-block`, in order.
 */
export function readCodeBlocks(page: Page): Promise<CodeBlockView[]> {
  return page.locator('.theme-doc-markdown .theme-code-block').evaluateAll((blocks) =>
    blocks.map((block) => {
      const lines = [...block.querySelectorAll('.token-line')];
      return {
        language: [...block.classList].find((name) => name.startsWith('language-')) ?? '',
        title: block.querySelector('[class*="codeBlockTitle"]')?.textContent ?? null,
        lines: lines.map((line) => line.textContent ?? ''),
        highlighted: lines.flatMap((line, index) => (line.classList.contains('theme-code-block-highlighted-line') ? [index + 1] : [])),
        copyButton: block.querySelector('button[aria-label="Copy code to clipboard"]') !== null,
      };
    }),
  );
}
