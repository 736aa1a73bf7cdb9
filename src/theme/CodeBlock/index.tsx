import React, {Children, isValidElement, type ReactNode} from 'react';
import type {Props} from '@theme/CodeBlock';
import ElementContent from '@theme/CodeBlock/Content/Element';
import StringContent from '@theme/CodeBlock/Content/String';
import {HighlightedHtml} from './highlighted';

/**
 * The code block's text when its children are only strings (what the copy button needs), else
 * `undefined` (children with elements are shown as they are).
 */
function plainText(children: ReactNode): string | undefined {
  const parts = Children.toArray(children);
  if (parts.some((part) => isValidElement(part))) return undefined;
  return parts.join('');
}

/**
 * Swizzled (replaced) `@theme/CodeBlock`: the theme's own content components, fed with the HTML
 * that src/rehype/highlight.ts made at build time, and without the remount after hydration.
 *
 * - A fenced block arrives with a `data-tango-html` prop (its highlighted lines); it is handed to
 *   `CodeBlock/Content` (also swizzled) through {@link HighlightedHtml}, so no highlighter runs in
 *   the browser. The theme's title, copy button, word wrap and line highlights are kept as they are.
 * - The stock component keys its content on "is this the browser", so every code block on a page
 *   is thrown away and built again right after hydration (to apply the dark Prism theme). Dark mode
 *   is now CSS (src/css/custom.css), so there is nothing to rebuild.
 *
 * Input: the theme's CodeBlock props (`children` a string, or elements from MDX) plus
 * `data-tango-html`. Output: the string or element content component. Errors: none.
 */
export default function CodeBlock({children, 'data-tango-html': html, ...props}: Props & {'data-tango-html'?: string}): ReactNode {
  const text = plainText(children);
  return text !== undefined ? (
    <HighlightedHtml.Provider value={html}>
      <StringContent {...props}>{text}</StringContent>
    </HighlightedHtml.Provider>
  ) : (
    <ElementContent {...props}>{children}</ElementContent>
  );
}
