import {Children, type ReactNode} from 'react';

import styles from './styles.module.css';

/** Props of {@link DiffTable}. */
export interface DiffTableProps {
  /** Heading of the first (old) column, e.g. the version `"1.1.0"`. */
  before: string;
  /** Heading of the second (new) column, e.g. the version `"2.0.0"`. */
  after: string;
  /** Exactly two children: the old code, then the new code (usually fenced code blocks). */
  children?: ReactNode;
}

/**
 * Side-by-side before/after comparison for upgrade pages.
 *
 * Input: `{before, after, children}`: two non-empty column headings and
 * exactly two children (whitespace-only text between them is ignored), the
 * first showing the code for `before` and the second the code for `after`.
 * Output: a two-column grid; each column is a `<figure>` whose `<figcaption>`
 * is its heading. Columns stack (before above after) at viewport widths of
 * 996px and below, Docusaurus' mobile breakpoint.
 * Errors: throws an Error when there are not exactly two children or a
 * heading is empty.
 * Facts: none; the code and versions come from the page author.
 */
export default function DiffTable({before, after, children}: DiffTableProps): ReactNode {
  if (!before || !after) {
    throw new Error('<DiffTable> needs non-empty `before` and `after` headings, e.g. before="1.1.0" after="2.0.0".');
  }
  const columns = Children.toArray(children).filter((child) => !(typeof child === 'string' && child.trim() === ''));
  if (columns.length !== 2) {
    throw new Error(
      `<DiffTable before="${before}" after="${after}"> needs exactly two children (the ${before} code, then the ${after} code), got ${columns.length}.`,
    );
  }
  return (
    <div className={styles.diffTable}>
      <figure className={styles.column}>
        <figcaption className={styles.heading}>{before}</figcaption>
        {columns[0]}
      </figure>
      <figure className={styles.column}>
        <figcaption className={styles.heading}>{after}</figcaption>
        {columns[1]}
      </figure>
    </div>
  );
}
