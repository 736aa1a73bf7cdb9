import type {ReactNode} from 'react';

import type {BrowserSupportData, BrowserSupportRow} from '../../remark/browser-support';
import styles from './styles.module.css';

/** Props of {@link BrowserSupport}. Authors write only `feature`; the remark plugin adds `data`. */
export interface BrowserSupportProps {
  /** Feature key, e.g. `"webusb"` (see `BROWSER_SUPPORT_FEATURES` in src/remark/browser-support.ts). */
  feature?: string;
  /** Support rows computed at build time by src/remark/browser-support.ts. */
  data?: BrowserSupportData;
}

function SupportCell({row}: {row: BrowserSupportRow}): ReactNode {
  return (
    <td>
      {row.version === false ? <span className={styles.unsupported}>No</span> : <span className={styles.version}>{row.version}</span>}
      {row.flagsOnly && <span className={styles.mark}>Flag only</span>}
      {row.partial && <span className={styles.mark}>Partial</span>}
      {row.notes !== undefined && (
        <ul className={styles.notes}>
          {row.notes.map((note, index) => (
            // Build-time text that never reorders, so the index is a stable key.
            <li key={index}>{note}</li>
          ))}
        </ul>
      )}
    </td>
  );
}

/**
 * Browser-support table for a web platform feature that Tango relies on.
 *
 * Input: `{feature, data}`, where `data` is the {@link BrowserSupportData}
 * object that the remark plugin src/remark/browser-support.ts computes at build
 * time from `<BrowserSupport feature="webusb" />`.
 * Output: a `<table>` captioned "Browser support for <title>", with a row per
 * browser (row header: browser name) and a "Since" column giving the first
 * supporting release (e.g. "61"), "No" when unsupported, plus "Flag only" /
 * "Partial" marks and BCD notes; below it, links to MDN and the specification
 * and the line "Data: @mdn/browser-compat-data <version>".
 * Errors: throws an Error when `data` is missing, which means the remark plugin
 * is not registered for the page's content plugin.
 * Facts: `@mdn/browser-compat-data`, read at build time (no runtime fetch).
 */
export default function BrowserSupport({feature, data}: BrowserSupportProps): ReactNode {
  if (data === undefined) {
    throw new Error(
      `<BrowserSupport feature="${feature ?? ''}"> has no \`data\` prop: register the remark plugin src/remark/browser-support.ts in the remarkPlugins of the docs (and pages/blog, if used there) in docusaurus.config.ts.`,
    );
  }
  return (
    <div className={styles.browserSupport}>
      <table className={styles.table}>
        <caption className={styles.caption}>Browser support for {data.title}</caption>
        <thead>
          <tr>
            <th scope="col">Browser</th>
            <th scope="col">Since</th>
          </tr>
        </thead>
        <tbody>
          {data.browsers.map((row) => (
            <tr key={row.id}>
              <th scope="row">{row.name}</th>
              <SupportCell row={row} />
            </tr>
          ))}
        </tbody>
      </table>
      <p className={styles.footer}>
        {/* eslint-disable-next-line @docusaurus/no-html-links -- external links: Link adds nothing to them, and the component renders outside Docusaurus in its unit test */}
        <a href={data.mdnUrl} target="_blank" rel="noopener noreferrer">
          {data.title} on MDN
        </a>
        {data.specUrl !== undefined && (
          <>
            {' · '}
            {/* eslint-disable-next-line @docusaurus/no-html-links -- an external link, as above */}
            <a href={data.specUrl} target="_blank" rel="noopener noreferrer">
              Specification
            </a>
          </>
        )}
        <br />
        Data: @mdn/browser-compat-data {data.bcdVersion}
      </p>
    </div>
  );
}
