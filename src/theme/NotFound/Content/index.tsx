import React, {useMemo, type ReactNode} from 'react';
import useIsBrowser from '@docusaurus/useIsBrowser';
import clsx from 'clsx';
import Link from '@docusaurus/Link';
import Heading from '@theme/Heading';
import {useLocation} from '@docusaurus/router';
import {useAllDocsData} from '@docusaurus/plugin-content-docs/client';
import type {Props} from '@theme/NotFound/Content';
import {findDocsElsewhere, type VersionDocs} from './findDocsElsewhere';
import styles from './styles.module.css';
import {NOT_FOUND_MARKER} from '../../NavbarItem';

/** The four sections every not-found page offers, as doc ids of the docs plugin. */
const SECTIONS = [
  {docId: 'tango/index', label: 'Guide', description: 'Connect to a device and run commands'},
  {docId: 'api/index', label: 'API', description: 'Every Adb and AdbServerClient command'},
  {docId: 'scrcpy/index', label: 'Scrcpy', description: 'Mirror and control the screen'},
  {docId: 'internal/index', label: 'Internal', description: 'How the ADB protocol works'},
];

/**
 * The body of the not-found page (the navbar, search and footer come from the layout around it).
 * It links to the four sections of the latest version and, when the missing path exists in
 * another docs version (or was split there into sub-pages), to those pages.
 *
 * Input: the `className` of `@theme/NotFound/Content`. Facts come from the docs plugin's global
 * data (`useAllDocsData`), so the links always match the built routes. The version links are
 * computed once hydrated (`useIsBrowser`) because the page is pre-rendered once as `/404.html`, for
 * every path.
 */
export default function NotFoundContent({className}: Props): ReactNode {
  const location = useLocation();
  const docsData = useAllDocsData().default;
  // Null while hydrating (the pre-rendered file knows no path), then the path being shown.
  const pathname = useIsBrowser() ? location.pathname : null;
  const elsewhere = useMemo(
    () => (pathname === null ? [] : findDocsElsewhere(pathname, docsData?.versions as VersionDocs[] | undefined)),
    [pathname, docsData],
  );

  const latest = docsData?.versions.find((version) => version.isLast);
  const sectionLinks = SECTIONS.flatMap((section) => {
    const doc = latest?.docs.find((d) => d.id === section.docId);
    return doc ? [{...section, path: doc.path}] : [];
  });

  return (
    <main className={clsx('container margin-vert--xl', className)} {...{[NOT_FOUND_MARKER]: ''}}>
      <div className="row">
        <div className="col col--8 col--offset-2">
          <Heading as="h1" className="hero__title">
            Page not found
          </Heading>
          <p>
            There is no page at {pathname === null ? 'this address' : <code>{pathname}</code>}. It may have moved, or exist only in another
            version of the docs.
          </p>
          {elsewhere.length > 0 && (
            <section aria-labelledby="not-found-elsewhere" className={styles.elsewhere}>
              <Heading as="h2" id="not-found-elsewhere">
                This page in other versions
              </Heading>
              <ul>
                {elsewhere.map((doc) => (
                  <li key={doc.path}>
                    <Link to={doc.path}>{doc.path}</Link> <span className={styles.version}>{doc.versionLabel}</span>
                  </li>
                ))}
              </ul>
            </section>
          )}
          <Heading as="h2">Browse the docs</Heading>
          <ul className={styles.sections}>
            {sectionLinks.map((section) => (
              <li key={section.docId}>
                <Link to={section.path}>{section.label}</Link>: {section.description}
              </li>
            ))}
          </ul>
          <p>Or search with the box at the top of the page (Ctrl+K or ⌘K).</p>
        </div>
      </div>
    </main>
  );
}
