import {useId, useRef, useState, type KeyboardEvent, type ReactNode} from 'react';
import clsx from 'clsx';

import type {InheritanceCell, InheritanceVersion, OptionsInheritanceData} from '../../remark/scrcpy-inheritance';

import styles from './styles.module.css';

export type {OptionsInheritanceData} from '../../remark/scrcpy-inheritance';

/**
 * A place in the grid. `row` is a version index, or -1 for the header row;
 * `col` is a member index, or -1 for the version (row header) column.
 */
export interface GridPosition {
  row: number;
  col: number;
}

/** How one cell looks while another place of the grid is active. */
export interface CellHighlight {
  /** The cell is in the active member's column or the active version's row. */
  related: boolean;
  /** The cell's version defines its own implementation of that member (and it is related). */
  override: boolean;
  /** The cell holds the implementation the active cell uses. */
  source: boolean;
  /** The cell runs the same implementation as the active cell. */
  shared: boolean;
}

/** The member name as the table writes it: getters get a `get ` prefix. */
function memberLabel(data: OptionsInheritanceData, col: number): string {
  const name = data.methods[col];
  return data.getters.includes(name) ? `get ${name}` : name;
}

function isOwn(cell: InheritanceCell | null, version: string): boolean {
  return cell !== null && cell.from === version && !cell.inherited;
}

/**
 * Says where a class gets the members it doesn't declare.
 *
 * Input: a version row. Output: "inherited from X" for a class that extends X,
 * "forwarded to X" for a 0.0.24 class that delegates to an X instance, or
 * "inherited from the parent class" when the row names neither. Errors: none.
 */
function baseNote(version: InheritanceVersion): string {
  if (version.delegatesTo !== undefined) {
    return `forwarded to ${version.delegatesTo}`;
  }
  return `inherited from ${version.extends ?? 'the parent class'}`;
}

/**
 * Says in one sentence where a member is overridden.
 *
 * Input: the grid data and a member index. Output: e.g. "serialize is defined
 * anew in 1.15, 1.17 and 1.18; 27 of 27 version classes have it." Errors: none
 * (an out-of-range index gives an empty string).
 */
export function describeMember(data: OptionsInheritanceData, col: number): string {
  if (data.methods[col] === undefined) {
    return '';
  }
  const owners = data.versions.filter((row) => isOwn(row.cells[col], row.version)).map((row) => row.version);
  const having = data.versions.filter((row) => row.cells[col] !== null).length;
  return `${memberLabel(data, col)} is defined anew in ${listWords(owners)}; ${having} of ${data.versions.length} version classes have it.`;
}

/**
 * Says in one sentence where one version class gets one member from.
 *
 * Input: the grid data, a version index and a member index.
 * Output: e.g. "ScrcpyOptions2_1.parseDisplay uses the implementation from 2.0
 * (ScrcpyOptions2_0)." or "… defines its own implementation."; for a missing
 * member "ScrcpyOptions1_15 has no parseAudioStreamMetadata.". Errors: none
 * (out-of-range indexes give an empty string).
 */
export function describeCell(data: OptionsInheritanceData, row: number, col: number): string {
  const version = data.versions[row];
  const name = data.methods[col];
  if (version === undefined || name === undefined) {
    return '';
  }
  const cell = version.cells[col];
  if (cell === null) {
    return `${version.className} has no ${memberLabel(data, col)}.`;
  }
  const subject = `${version.className}.${name}`;
  const how = cell.inherited ? ` (${baseNote(version)})` : '';
  if (cell.from === version.version) {
    return `${subject} defines its own implementation.`;
  }
  const source = data.versions.find((candidate) => candidate.version === cell.from);
  return `${subject} uses the implementation from ${cell.from}${source ? ` (${source.className})` : ''}${how}.`;
}

/**
 * Says in one sentence which members a version class defines itself.
 *
 * Input: the grid data and a version index. Output: e.g. "ScrcpyOptions1_22
 * defines 4 of its 15 members anew: serialize, … and createScrollController."
 * Errors: none (an out-of-range index gives an empty string).
 */
export function describeVersion(data: OptionsInheritanceData, row: number): string {
  const version = data.versions[row];
  if (version === undefined) {
    return '';
  }
  const own = data.methods.filter((_, col) => isOwn(version.cells[col], version.version));
  const count = version.cells.filter((cell) => cell !== null).length;
  let parent = '';
  if (version.delegatesTo !== undefined) {
    parent = ` It forwards the others to a ${version.delegatesTo}.`;
  } else if (version.extends !== undefined) {
    parent = ` It extends ${version.extends}.`;
  }
  if (own.length === 0) {
    return `${version.className} defines none of its ${count} members anew.${parent}`;
  }
  return `${version.className} defines ${own.length} of its ${count} members anew: ${listWords(own)}.${parent}`;
}

function listWords(words: string[]): string {
  if (words.length <= 1) {
    return words[0] ?? 'no version';
  }
  return `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

/**
 * The sentence the live region shows for the active place.
 *
 * Input: the grid data and the active position, or `null`. Output: the
 * sentence from {@link describeCell}, {@link describeMember} or
 * {@link describeVersion}, or the usage hint when nothing is active.
 * Errors: none.
 */
export function describePosition(data: OptionsInheritanceData, active: GridPosition | null): string {
  if (active === null || (active.row < 0 && active.col < 0)) {
    return 'Hover over or focus a member name, a version or a cell (arrow keys move between them) to see where each implementation comes from.';
  }
  if (active.row < 0) {
    return describeMember(data, active.col);
  }
  if (active.col < 0) {
    return describeVersion(data, active.row);
  }
  return describeCell(data, active.row, active.col);
}

/**
 * Computes how a cell is highlighted.
 *
 * Input: the grid data, the active position (or `null`) and the cell's
 * version and member indexes. Output: a {@link CellHighlight}: with a member
 * active, its column is related and its overrides are marked; with a version
 * active, its row; with a cell active, its column plus the cell that holds the
 * implementation it uses (`source`) and the cells that share it (`shared`).
 * Errors: none.
 */
export function cellHighlight(data: OptionsInheritanceData, active: GridPosition | null, row: number, col: number): CellHighlight {
  const none: CellHighlight = {related: false, override: false, source: false, shared: false};
  if (active === null) {
    return none;
  }
  const related = (active.col >= 0 && active.col === col) || (active.col < 0 && active.row >= 0 && active.row === row);
  if (!related) {
    return none;
  }
  const version = data.versions[row];
  const cell = version?.cells[col] ?? null;
  const result: CellHighlight = {...none, related, override: isOwn(cell, version?.version ?? '')};
  if (active.row >= 0 && active.col >= 0 && cell !== null) {
    const activeCell = data.versions[active.row]?.cells[active.col] ?? null;
    if (activeCell !== null) {
      result.shared = activeCell.from === cell.from;
      result.source = result.shared && version.version === activeCell.from;
    }
  }
  return result;
}

/**
 * Moves the keyboard position of the grid.
 *
 * Input: the current position, a `KeyboardEvent.key`, and the number of
 * version rows and member columns. Arrow keys move one step, Home/End go to the
 * first/last member of the row; positions stop at the edges and never land on
 * the empty corner (-1, -1).
 * Output: the new position, or `null` for a key the grid does not handle.
 * Errors: none.
 */
export function moveFocus(position: GridPosition, key: string, rows: number, cols: number): GridPosition | null {
  let {row, col} = position;
  switch (key) {
    case 'ArrowUp':
      row = Math.max(-1, row - 1);
      break;
    case 'ArrowDown':
      row = Math.min(rows - 1, row + 1);
      break;
    case 'ArrowLeft':
      col = Math.max(-1, col - 1);
      break;
    case 'ArrowRight':
      col = Math.min(cols - 1, col + 1);
      break;
    case 'Home':
      col = row < 0 ? 0 : -1;
      break;
    case 'End':
      col = cols - 1;
      break;
    default:
      return null;
  }
  if (row < 0 && col < 0) {
    return position;
  }
  return {row, col};
}

/** Props of {@link OptionsInheritance}. */
export interface OptionsInheritanceProps {
  /** Filled in at build time by `src/remark/scrcpy-inheritance.ts`; never written by hand. */
  data?: OptionsInheritanceData;
}

function cellText(cell: InheritanceCell | null): string {
  return cell === null ? '—' : cell.from;
}

function hiddenCellText(cell: InheritanceCell | null, version: InheritanceVersion): string {
  if (cell === null) {
    return ' (not available)';
  }
  if (cell.inherited) {
    return ` (${baseNote(version)})`;
  }
  return cell.from === version.version ? ' (own implementation)' : ' (shared implementation)';
}

/**
 * Interactive grid of which Scrcpy server version's implementation each
 * `ScrcpyOptionsX_YY` class uses for each of its members.
 *
 * Input: `data` from the remark plugin (versions × members).
 * Output: a keyboard-navigable table (`role="grid"`, one tab stop, arrow keys,
 * Home/End) with a legend and a polite live region. Hovering or focusing a
 * member name highlights the versions that override it; a version highlights
 * its own members; a cell highlights the implementation it uses and the
 * versions sharing it. The first render depends on `data` only, so the server
 * and client renders match.
 * Errors: throws when `data` is missing, i.e. the remark plugin is not registered.
 * Facts: `@yume-chan/scrcpy`'s source, read by the plugin at build time.
 */
export default function OptionsInheritance({data}: OptionsInheritanceProps): ReactNode {
  const id = useId();
  const [focusPosition, setFocusPosition] = useState<GridPosition>({row: -1, col: 0});
  const [focused, setFocused] = useState(false);
  const [hovered, setHovered] = useState<GridPosition | null>(null);
  const tableRef = useRef<HTMLTableElement>(null);
  if (data === undefined) {
    throw new Error(
      '<OptionsInheritance> has no data: register src/remark/scrcpy-inheritance.ts in the docs remarkPlugins of docusaurus.config.ts.',
    );
  }
  const summaryId = `${id}-summary`;
  const legendId = `${id}-legend`;
  const active = hovered ?? (focused ? focusPosition : null);
  const rows = data.versions.length;
  const cols = data.methods.length;
  const delegates = data.versions.some((version) => version.delegatesTo !== undefined);

  const focusCell = (position: GridPosition) => {
    setFocusPosition(position);
    tableRef.current?.querySelector<HTMLElement>(`[data-row="${position.row}"][data-col="${position.col}"]`)?.focus();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTableElement>) => {
    if (event.key === 'Escape') {
      setHovered(null);
      return;
    }
    const next = moveFocus(focusPosition, event.key, rows, cols);
    if (next !== null) {
      event.preventDefault();
      focusCell(next);
    }
  };
  const placeProps = (row: number, col: number) => ({
    'data-row': row,
    'data-col': col,
    tabIndex: focusPosition.row === row && focusPosition.col === col ? 0 : -1,
    onFocus: () => {
      setFocusPosition({row, col});
      setFocused(true);
    },
    onMouseEnter: () => setHovered({row, col}),
  });

  return (
    <figure className={styles.figure}>
      <figcaption id={legendId} className={styles.legend}>
        Which server version's implementation each options class of {data.packageName} {data.packageVersion} runs.{' '}
        <strong className={styles.ownSample}>Bold</strong>: the class defines its own; <span className={styles.inheritedSample}>↑</span>:{' '}
        {delegates ? (
          <>
            forwarded to the instance of the older class that the constructor passes to <code>super</code>
          </>
        ) : (
          <>
            inherited through <code>extends</code>
          </>
        )}
        ; —: the class has no such member.
      </figcaption>
      <div className={styles.scroller}>
        <table
          ref={tableRef}
          role="grid"
          aria-readonly="true"
          aria-labelledby={legendId}
          aria-describedby={summaryId}
          className={styles.table}
          onKeyDown={onKeyDown}
          onBlur={(event) => {
            if (!event.currentTarget.contains(event.relatedTarget as Node | null)) {
              setFocused(false);
            }
          }}
          onMouseLeave={() => setHovered(null)}
        >
          <thead>
            <tr>
              <th scope="col" className={styles.corner}>
                Class
              </th>
              {data.methods.map((name, col) => (
                <th
                  key={name}
                  scope="col"
                  className={clsx(styles.member, active?.col === col && styles.activeHeader)}
                  {...placeProps(-1, col)}
                >
                  <span className={styles.memberName}>
                    <code>{memberLabel(data, col)}</code>
                  </span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {data.versions.map((version, row) => (
              <tr key={version.className}>
                <th scope="row" className={clsx(styles.version, active?.row === row && styles.activeHeader)} {...placeProps(row, -1)}>
                  {version.version}
                  <span className="tango-visually-hidden"> ({version.className})</span>
                </th>
                {version.cells.map((cell, col) => {
                  const highlight = cellHighlight(data, active, row, col);
                  return (
                    <td
                      key={data.methods[col]}
                      className={clsx(
                        styles.cell,
                        isOwn(cell, version.version) && styles.own,
                        cell?.inherited && styles.inherited,
                        cell === null && styles.missing,
                        highlight.related && styles.related,
                        highlight.override && styles.override,
                        highlight.shared && styles.shared,
                        highlight.source && styles.source,
                        active?.row === row && active.col === col && styles.activeCell,
                      )}
                      {...placeProps(row, col)}
                    >
                      {cell?.inherited && (
                        <span aria-hidden="true" className={styles.arrow}>
                          ↑
                        </span>
                      )}
                      {cellText(cell)}
                      <span className="tango-visually-hidden">{hiddenCellText(cell, version)}</span>
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p id={summaryId} className={styles.summary} aria-live="polite">
        {describePosition(data, active)}
      </p>
    </figure>
  );
}
