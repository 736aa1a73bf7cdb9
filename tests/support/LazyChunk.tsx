import React, {type ReactNode} from 'react';

/** Test-only content loaded as its own chunk by `CrashPage`. */
export default function LazyChunk(): ReactNode {
  return <p id="lazy-chunk">Lazy chunk loaded.</p>;
}
