import React, {Children, isValidElement, type ReactNode} from 'react';
import type {Props} from '@theme/CodeBlock';
import ElementContent from '@theme/CodeBlock/Content/Element';
import StringContent from '@theme/CodeBlock/Content/String';

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
 * Swizzled (replaced) `@theme/CodeBlock`: the theme's own content components, without the remount
 * after hydration.
 *
 * The stock component keys its content on "is this the browser", so every code block on a page is
 * thrown away and built again right after hydration, to apply the dark Prism theme when the reader
 * is in dark mode. Docusaurus 3.10 already handles that case without it: the colour mode is the
 * default (light) while the page hydrates and changes in an effect afterwards, so a dark-mode
 * reader's code blocks re-render with the dark theme as an ordinary update. Dropping the remount
 * saves highlighting and building every block twice on each page load (see bench/lighthouse.ts for
 * the figures). tests/e2e/mdx.spec.ts checks that a dark-mode reader gets the dark colours, and the
 * dark-mode accessibility test (tests/e2e/a11y.spec.ts) their contrast.
 *
 * Input: the theme's CodeBlock props (`children` a string, or elements from MDX). Output: the
 * string or element content component. Errors: none.
 */
export default function CodeBlock({children, ...props}: Props): ReactNode {
  const text = plainText(children);
  return text !== undefined ? <StringContent {...props}>{text}</StringContent> : <ElementContent {...props}>{children}</ElementContent>;
}
