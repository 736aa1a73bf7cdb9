import {useState, type ReactNode} from 'react';
import Head from '@docusaurus/Head';
import useBaseUrl from '@docusaurus/useBaseUrl';
import {twinPath} from '../../utils/twin-path';

import styles from './styles.module.css';

type Status = 'idle' | 'copied' | 'failed';

/** Fetches the twin; rejects with the HTTP status when the file is missing. */
async function fetchTwin(href: string): Promise<Blob> {
  const response = await fetch(href);
  if (!response.ok) {
    throw new Error(`${href}: HTTP ${response.status}`);
  }
  return new Blob([await response.text()], {type: 'text/plain'});
}

/**
 * Copies the twin's text. Where `ClipboardItem` takes a promise (Chrome, Safari), the clipboard
 * write starts inside the click, as Safari requires, and the fetch fills it in; elsewhere
 * (Firefox) the text is fetched first and written with `writeText`.
 */
async function copyTwin(href: string): Promise<void> {
  if (typeof ClipboardItem !== 'undefined' && typeof navigator.clipboard.write === 'function') {
    await navigator.clipboard.write([new ClipboardItem({'text/plain': fetchTwin(href)})]);
    return;
  }
  await navigator.clipboard.writeText(await (await fetchTwin(href)).text());
}

/**
 * "Copy page" and "View as Markdown" for a doc page, and the page's
 * `<link rel="alternate" type="text/markdown">`.
 *
 * Input: `permalink`, the doc's path (e.g. `/api/adb/sync/stat/`). Output: a button that copies the
 * page's Markdown twin (fetched on click from `/api/adb/sync/stat.md`, written by
 * src/plugins/llms-txt at build time, never shipped in the page) to the clipboard, a link to that
 * twin, and a polite live region that says "Copied the page as Markdown." or why it failed.
 * Errors: none thrown; a failed fetch or a refused clipboard shows "Copy failed" and the reason.
 * Facts: none.
 */
export default function CopyPage({permalink}: {permalink: string}): ReactNode {
  const href = useBaseUrl(twinPath(permalink));
  const [status, setStatus] = useState<Status>('idle');
  const [reason, setReason] = useState('');
  const copy = (): void => {
    copyTwin(href).then(
      () => setStatus('copied'),
      (error: unknown) => {
        setStatus('failed');
        setReason(error instanceof Error ? error.message : String(error));
      },
    );
  };
  return (
    <div className={styles.actions}>
      <Head>
        <link rel="alternate" type="text/markdown" href={href} />
      </Head>
      <button type="button" className={styles.action} onClick={copy}>
        {status === 'copied' ? 'Copied' : status === 'failed' ? 'Copy failed' : 'Copy page'}
      </button>
      {/* A file, not a route: a plain link loads it (Link would route it in the app and show the 404 screen). */}
      {/* eslint-disable-next-line @docusaurus/no-html-links */}
      <a className={styles.action} href={href} type="text/markdown">
        View as Markdown
      </a>
      <span className="tango-visually-hidden" role="status">
        {status === 'copied' ? 'Copied the page as Markdown.' : status === 'failed' ? `Could not copy the page: ${reason}` : ''}
      </span>
    </div>
  );
}
