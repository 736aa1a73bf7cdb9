import React, {type ReactNode} from 'react';
import {Route} from 'react-router-dom';
import useIsBrowser from '@docusaurus/useIsBrowser';
import {useLocation} from '@docusaurus/router';
import NavbarItem from '@theme-original/NavbarItem';
import type {Props} from '@theme/NavbarItem';

/** Set on the `<main>` of the not-found page (src/theme/NotFound/Content), so that its pre-rendered HTML can be recognised. */
export const NOT_FOUND_MARKER = 'data-tango-not-found';

/**
 * The location Docusaurus pre-renders the not-found page at (`NotFoundRoutePath` in
 * @docusaurus/core's lib/server/routes.js); every missing path is answered with that file.
 */
const PRERENDERED_NOT_FOUND = {pathname: '/404.html', search: '', hash: '', state: undefined};

/**
 * Whether this render must reproduce the pre-rendered not-found page: on the server while rendering
 * `/404.html`, and in the browser while hydrating a document that is that page (its `<main>` carries
 * {@link NOT_FOUND_MARKER}). After hydration, and on every other page, it is false.
 */
function useHydratingNotFound(pathname: string): boolean {
  const isBrowser = useIsBrowser();
  if (isBrowser) return false;
  if (typeof document === 'undefined') return pathname === PRERENDERED_NOT_FOUND.pathname;
  return document.querySelector(`main[${NOT_FOUND_MARKER}]`) !== null;
}

/**
 * Swizzled (wrapped) `@theme/NavbarItem`: each navbar item, hydrated as it was pre-rendered on a
 * not-found page.
 *
 * Why: hosts answer every missing path with the one `/404.html`, pre-rendered for the latest
 * version. Navbar items read the path: under `/1.1.0/zzz/` the version dropdown says "1.1.0" and
 * the doc links point into 1.1.0. Hydrating the file there made React report hydration errors
 * (#418, #423, #425) and render the whole page again.
 *
 * How: while that page hydrates, the item renders under a `<Route>` whose location is `/404.html`,
 * so its markup matches the file; right after hydration the route takes the real location again
 * and the item updates as in any render (same element type: no remount). The router's history is
 * untouched, so links work throughout.
 *
 * Input: the theme's NavbarItem props. Output: the theme's navbar item. Errors: those of the theme's
 * component (an unknown `type`).
 */
export default function NavbarItemWrapper(props: Props): ReactNode {
  const {pathname} = useLocation();
  const hydrating = useHydratingNotFound(pathname);
  return <Route location={hydrating ? PRERENDERED_NOT_FOUND : undefined} render={() => <NavbarItem {...props} />} />;
}
