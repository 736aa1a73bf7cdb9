import React, {useEffect, type ComponentProps, type ReactNode} from 'react';
import OriginalSearchBar from '@theme-original/SearchBar';
import {MAX_QUERY_LENGTH} from '@site/src/theme/SearchPage/searchQuery';

/**
 * Swizzled (wrapped) `@theme/SearchBar` of @easyops-cn/docusaurus-search-local: the plugin's navbar
 * search box, limited to {@link MAX_QUERY_LENGTH} characters like the search page's box.
 *
 * The plugin matches every word with an edit distance; pasting a few thousand characters into its
 * box kept the search worker busy for minutes, and every later suggestion of that page with it.
 * Once mounted, this sets `maxlength` on the plugin's input (class `navbar__search-input`), so the
 * browser cuts typed or pasted text at the limit. The plugin renders no prop for it.
 *
 * Input: the plugin's SearchBar props. Output: the plugin's search bar. Errors: none. Tested in
 * tests/e2e/bad-input.spec.ts.
 */
export default function SearchBar(props: ComponentProps<typeof OriginalSearchBar>): ReactNode {
  useEffect(() => {
    for (const input of document.querySelectorAll<HTMLInputElement>('input.navbar__search-input')) {
      input.maxLength = MAX_QUERY_LENGTH;
    }
  }, []);
  return <OriginalSearchBar {...props} />;
}
