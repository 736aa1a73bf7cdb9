import React, {type ReactNode} from 'react';
import DocusaurusComponentCreator from '@docusaurus/core/lib/client/exports/ComponentCreator';

/** What Docusaurus's ComponentCreator returns: a react-loadable component with `preload()`. */
type LoadableRoute = ReturnType<typeof DocusaurusComponentCreator>;

/** A route component as Docusaurus's router uses it: rendered, and preloaded before navigation. */
export interface LazyRouteComponent {
  (props: object): ReactNode;
  /** Loads the route's chunks (react-loadable's `preload`, which returns its loading promise). */
  preload: LoadableRoute['preload'];
}

/**
 * Stands in for `@docusaurus/ComponentCreator` (webpack alias in docusaurus.config.ts, plugin
 * `tango-stand-ins`), the function the generated route table (`.docusaurus/routes.js`) calls once
 * per route while main.js is evaluated.
 *
 * Why: Docusaurus's ComponentCreator builds a react-loadable component on the spot: it flattens
 * the route's chunk names, looks each one up in the registry and creates a loadable class. With
 * ~375 routes (4 versions), that was 8-22 % of the main.js task in Chrome traces of the home page
 * (bench/long-tasks.ts), for routes the reader may never open; without it, that task went from 284
 * to 255 ms (median of 8 loads, 4x CPU throttling). This returns a small
 * function instead and calls Docusaurus's ComponentCreator the first time the route is rendered
 * or preloaded; the result is kept, so each route builds its loadable once, as before.
 *
 * Input: the route's path and the hash of its chunk names, as routes.js passes them. Output: a
 * component that renders Docusaurus's loadable with the same props, and has the same `preload()`
 * (Docusaurus calls it before it hydrates and before each client-side navigation). Server
 * rendering goes through the same two entry points, so the markup has the same shape on both sides.
 * Errors: those of Docusaurus's ComponentCreator (e.g. a page without a default export), thrown
 * when the route is first rendered instead of at load.
 */
export default function ComponentCreator(path: string, hash: string): LazyRouteComponent {
  let loadable: LoadableRoute | undefined;
  const load = (): LoadableRoute => (loadable ??= DocusaurusComponentCreator(path, hash));
  const Route = ((props: object) => {
    const Loadable = load();
    return <Loadable {...props} />;
  }) as LazyRouteComponent;
  Route.preload = () => load().preload();
  return Route;
}
