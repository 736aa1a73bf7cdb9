import React, {useEffect, useState, type ReactNode} from 'react';
import SearchPage from '@theme-original/SearchPage';
import Layout from '@theme/Layout';
import Heading from '@theme/Heading';
import Link from '@docusaurus/Link';
import {useLocation} from '@docusaurus/router';
import useDocusaurusContext from '@docusaurus/useDocusaurusContext';
import useIsBrowser from '@docusaurus/useIsBrowser';
import {useAllDocsData} from '@docusaurus/plugin-content-docs/client';
import {checkSearchVersion} from './searchVersion';
import {MAX_QUERY_LENGTH, shortenQuery} from './searchQuery';

/**
 * The search page (`/search/?q=…&version=…`), wrapped so that a `version` parameter the site
 * does not have never reaches the search plugin (which would fetch a missing index and spin):
 * the reader gets a page that says the version is unknown and links to the same search in every
 * version. A query longer than MAX_QUERY_LENGTH (searchQuery.ts) is not run either: it would keep
 * the search worker busy for minutes behind a spinner; the reader gets a page that says so and
 * links to the search for its start, and the page's search box takes at most that many
 * characters. Facts: the docs plugin's versions.
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
  const tooLong = isBrowser && query.length > MAX_QUERY_LENGTH;
  // The plugin's own search box (not the navbar's) has no length limit: give it one.
  useEffect(() => {
    document.querySelector('input[type="search"][name="q"]')?.setAttribute('maxlength', String(MAX_QUERY_LENGTH));
  });

  const searchIn = (version: string | null, q = query) => {
    const next = new URLSearchParams({q});
    if (version) next.set('version', version);
    return `/search/?${next.toString()}`;
  };

  if (check.kind === 'ok' && !tooLong) return <SearchPage />;

  if (check.kind === 'ok') {
    const version = params.get('version') || null;
    return (
      <Layout title="Search query too long">
        <main className="container margin-vert--lg">
          <Heading as="h1">Search query too long</Heading>
          <p>
            The search asked for a query of {query.length} characters; it searches for at most {MAX_QUERY_LENGTH}.
          </p>
          <p>
            <Link to={searchIn(version, shortenQuery(query))}>Search for its first {MAX_QUERY_LENGTH} characters</Link>
          </p>
        </main>
      </Layout>
    );
  }
  return (
    <Layout title="Unknown docs version">
      <main className="container margin-vert--lg">
        <Heading as="h1">Unknown docs version</Heading>
        <p>
          The search asked for the docs version <code>{check.requested}</code>, which this site does not have. Search{' '}
          {query ? (
            <>
              for <q>{query}</q>{' '}
            </>
          ) : null}
          in:
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
