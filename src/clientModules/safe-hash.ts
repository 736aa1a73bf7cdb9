/**
 * Client module: keeps a malformed URL hash from crashing the page.
 *
 * Docusaurus 3.10 decodes `location.hash` with `decodeURIComponent` after every in-page navigation
 * (ClientLifecyclesDispatcher's scroll to the anchor). A hash with a broken escape, such as
 * `#%E0%A4%A` from a mangled link, throws a URIError there and the reader gets the crash screen.
 * This module listens to `popstate` and `hashchange` in the capture phase, before the router, and
 * replaces such a hash (with `history.replaceState`, no new history entry) by its percent-encoded
 * form, which decodes back to the same characters. Valid hashes are left alone.
 *
 * Input: none (browser only; does nothing during server rendering). Output: none. Errors: none.
 */
function repairHash(): void {
  const raw = window.location.hash.slice(1);
  if (raw === '') return;
  try {
    decodeURIComponent(raw);
  } catch {
    const {pathname, search} = window.location;
    window.history.replaceState(window.history.state, '', `${pathname}${search}#${encodeURIComponent(raw)}`);
  }
}

if (typeof window !== 'undefined') {
  window.addEventListener('popstate', repairHash, {capture: true});
  window.addEventListener('hashchange', repairHash, {capture: true});
}

export {};
