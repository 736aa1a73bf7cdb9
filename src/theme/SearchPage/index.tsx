import React, {useState, type ReactNode} from 'react';
import SearchPage from '@theme-original/SearchPage';
import Layout from '@theme/Layout';
import Heading from '@theme/Heading';
import Link from '@docusaurus/Link';
import {useLocation} from '@docusaurus/router';
import useDocusaurusContext from '@docusaurus/useDocusaurusContext';
import useIsBrowser from '@docusaurus/useIsBrowser';
import {useAllDocsData} from '@docusaurus/plugin-content-docs/client';
import {checkSearchVersion} from './searchVersion';

/**
 * The search page (`/search/?q=…&version=…`), wrapped so that a `version` parameter the site
 * does not have never reaches the search plugin (which would fetch a missing index and spin):
 * the reader gets a page that says the version is unknown and links to the same search in every
 * version. Facts: the docs plugin's versions.
 */
export default function SearchPageWrapper(): ReactNode {
  const location = useLocation();
  const {siteConfig} = useDocusaurusContext();
  const versions = useAllDocsData().default?.versions ?? [];
  const params = new URLSearchParams(location.search);
  // The page is pre-rendered without a query string: hydrate that first, then check.
  const isBrowser = useIsBrowser();
  const check = isBrowser ? checkSearchVersion(params.get('version'), versions, siteConfig.baseUrl) : ({kind: 'ok'} as const);
  // While hydrating, the plugin's page sees no query and drops `q` from the URL; keep it here.
  const [initialQuery] = useState(() => (typeof window === 'undefined' ? null : new URLSearchParams(window.location.search).get('q')));
  const query = params.get('q') ?? initialQuery ?? '';

  if (check.kind === 'ok') return <SearchPage />;

  const searchIn = (version: string | null) => {
    const next = new URLSearchParams({q: query});
    if (version) next.set('version', version);
    return `/search/?${next.toString()}`;
  };
  return (
    <Layout title="Unknown docs version">
      <main className="container margin-vert--lg">
        <Heading as="h1">Unknown docs version</Heading>
        <p>
          The search asked for the docs version <code>{check.requested}</code>, which this site does not
          have. Search {query ? <>for <q>{query}</q> </> : null}in:
        </p>
        <ul>
          {check.known.map((k) => (
            <li key={k.label}>
              <Link to={searchIn(k.version)}>{k.label}</Link>
            </li>
          ))}
        </ul>
      </main>
    </Layout>
  );
}
