import {cloneElement, isValidElement, type ReactNode} from 'react';
import type {Props} from '@theme/Tabs';
import OriginalTabs from '@theme-original/Tabs';

/**
 * Swizzled (wrapped) `@theme/Tabs`: the theme's tabs, without the remount after hydration.
 *
 * The stock component keys its root on "is this the browser", so every tab set, and every code
 * block inside it, is thrown away and built again right after hydration (a workaround from before
 * Docusaurus restored the reader's stored tab in a layout effect, which it now does as an ordinary
 * update). On the API pages, where most code blocks sit in TypeScript/JavaScript tabs, that doubled
 * the highlighting work of page load. This wrapper calls the theme's component as a function, so its
 * hooks run as this component's own, and gives the element it returns a fixed key.
 *
 * Input: the theme's Tabs props. Output: the theme's tab set. Errors: none of its own. The browser
 * tests check that a stored choice (JavaScript) is shown after a reload and that tabs still switch.
 */
export default function Tabs(props: Props): ReactNode {
  const element = (OriginalTabs as (props: Props) => ReactNode)(props);
  return isValidElement(element) ? cloneElement(element, {key: 'tabs'}) : element;
}
