import {createContext} from 'react';

/**
 * The build-time highlighted HTML of the code block being rendered: its lines joined by `\n`
 * (src/rehype/highlight.ts), or `undefined` for a block without it (a language Prism doesn't know,
 * or a CodeBlock used from a component). Provided by src/theme/CodeBlock, read by its Content.
 */
export const HighlightedHtml = createContext<string | undefined>(undefined);
