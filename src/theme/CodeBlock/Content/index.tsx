import React, {useContext, type ReactNode, type RefObject} from 'react';
import clsx from 'clsx';
import {useCodeBlockContext} from '@docusaurus/theme-common/internal';
import type {Props} from '@theme/CodeBlock/Content';
import {HighlightedHtml} from '../highlighted';

import styles from './styles.module.css';
import {escapeHtml} from '../../../utils/escape-html';

/**
 * Swizzled (replaced) `@theme/CodeBlock/Content`: the lines of a code block, highlighted at build
 * time, in the theme's markup (`pre.prism-code > code > div.token-line`, the line-highlight classes
 * of the block's metastring, the word-wrap ref), without running Prism.
 *
 * Input: the theme's props (`className`); the block's metadata from the code block context, and
 * its highlighted HTML from {@link HighlightedHtml} (src/rehype/highlight.ts). Output: one `div`
 * per line whose HTML is set, not built token by token, so that hydration only attaches to the
 * lines. A block without highlighted HTML shows its text unhighlighted. Errors: none.
 * Upstream: theme-classic 3.10.2 `src/theme/CodeBlock/Content/index.tsx` (line numbers are not
 * used by these pages and not supported here).
 */
export default function CodeBlockContent({className}: Props): ReactNode {
  const {metadata, wordWrap} = useCodeBlockContext();
  const html = useContext(HighlightedHtml);
  // The theme's hook types the ref for React 19 (`RefObject<T | null>`); React 18's typings want `RefObject<T>`.
  const preRef = wordWrap.codeBlockRef as RefObject<HTMLPreElement>;
  const lines = html !== undefined ? html.split('\n') : metadata.code.split('\n').map(escapeHtml);
  return (
    <pre
      // eslint-disable-next-line react-hooks/refs -- handing a ref object to `ref` reads nothing; the rule loses track of it through the type cast
      ref={preRef}
      // A scroll box: focusable so that keyboard users can scroll it (as the theme's).
      tabIndex={0}
      className={clsx(className, 'prism-code', `language-${metadata.language}`, styles.codeBlock, 'thin-scrollbar')}
    >
      <code className={clsx(styles.codeBlockLines, 'tango-code')}>
        {lines.map((line, index) => (
          <div
            key={index}
            className={clsx('token-line', metadata.lineClassNames[index])}
            dangerouslySetInnerHTML={{__html: `${line}<br>`}}
          />
        ))}
      </code>
    </pre>
  );
}
