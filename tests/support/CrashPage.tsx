import React, {type ReactNode} from 'react';
import Heading from '@theme/Heading';
import Layout from '@theme/Layout';
import Loadable from 'react-loadable';
import Loading from '@theme/Loading';

/**
 * Test-only page, mounted at `/__test__/crash/` when the site is built with TANGO_TEST_ROUTES=1.
 * - While `sessionStorage['tango-test-crash']` is `'1'` it throws while rendering; a test sets it,
 *   sees the crash screen, clears it and presses "Try again" to see the page recover.
 * - Its lazily loaded chunk (`LazyChunk`) lets a test abort the chunk request and see the
 *   load-error screen with its Retry button.
 */
const LazyChunk = Loadable({
  loader: () => import('./LazyChunk'),
  loading: Loading,
});

function Bomb(): ReactNode {
  if (typeof window !== 'undefined' && window.sessionStorage.getItem('tango-test-crash') === '1') {
    throw new Error('Induced crash for the crash-screen test');
  }
  return <p id="crash-recovered">Rendered without crashing.</p>;
}

export default function CrashPage(): ReactNode {
  return (
    <Layout title="Test page">
      <main className="container margin-vert--lg">
        <Heading as="h1">Test page</Heading>
        <Bomb />
        <LazyChunk />
      </main>
    </Layout>
  );
}
