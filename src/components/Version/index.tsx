import type {ReactNode} from 'react';

import {compareVersions} from '../../utils/versions';
import styles from './styles.module.css';

/** Props of {@link Version}. At least one of `since` and `until` is required. */
export interface VersionProps {
  /** First Scrcpy server version with the behaviour, e.g. `"2.0"`. */
  since?: string;
  /** Last Scrcpy server version with the behaviour (inclusive), e.g. `"3.0"`. */
  until?: string;
}

/** A Scrcpy server version: two or three dot-separated numbers, e.g. 1.22, 2.0, 2.1.1. */
const VERSION_PATTERN = /^\d+\.\d+(?:\.\d+)?$/;

function assertVersion(name: 'since' | 'until', value: string): void {
  if (!VERSION_PATTERN.test(value)) {
    throw new Error(
      `<Version ${name}="${value}">: "${value}" is not a Scrcpy server version; write dotted numbers such as "1.22", "2.0" or "2.1.1", without a "v".`,
    );
  }
}

/**
 * Describes a Scrcpy server version range in words and as badge text.
 *
 * Input: `{since?, until?}` as for {@link Version}; `until` is inclusive.
 * Output: `{text, label}`, e.g. `{text: 'v2.0+', label: 'Scrcpy server v2.0 and later'}`,
 * `{text: 'until v3.0', label: 'Scrcpy server v3.0 and earlier'}` or
 * `{text: 'v1.22 – v2.0', label: 'Scrcpy server v1.22 to v2.0'}`.
 * Errors: throws an Error when neither prop is given, when a prop is not a
 * dotted version number, or when `since` is later than `until`.
 * Facts: none; the versions come from the page author, who takes them from the
 * Scrcpy release notes.
 */
export function describeVersionRange({since, until}: VersionProps): {text: string; label: string} {
  if (since === undefined && until === undefined) {
    throw new Error('<Version> needs a `since` or an `until` prop (or both), e.g. <Version since="2.0" />.');
  }
  if (since !== undefined) {
    assertVersion('since', since);
  }
  if (until !== undefined) {
    assertVersion('until', until);
  }
  if (since !== undefined && until !== undefined) {
    if (compareVersions(since, until) > 0) {
      throw new Error(`<Version since="${since}" until="${until}">: \`since\` is later than \`until\`.`);
    }
    return {text: `v${since} – v${until}`, label: `Scrcpy server v${since} to v${until}`};
  }
  if (since !== undefined) {
    return {text: `v${since}+`, label: `Scrcpy server v${since} and later`};
  }
  return {text: `until v${until}`, label: `Scrcpy server v${until} and earlier`};
}

/**
 * Inline badge marking behaviour that depends on the Scrcpy server version.
 *
 * Input: `{since?: string, until?: string}`, Scrcpy server versions such as
 * `"1.22"`; `until` is the last version that still has the behaviour.
 * Output: a `<span>` pill showing e.g. "v2.0+", "until v3.0" or "v1.22 – v2.0".
 * Screen readers hear the full wording ("Scrcpy server v2.0 and later") from
 * visually hidden text, and the same wording is the tooltip (`title`).
 * Errors: throws (see {@link describeVersionRange}) for missing or malformed
 * props, so a typo fails the build instead of showing a wrong badge.
 * Facts: the versions are given by the page author from the Scrcpy release notes.
 */
export default function Version(props: VersionProps): ReactNode {
  const {text, label} = describeVersionRange(props);
  return (
    <span className={styles.badge} title={label}>
      <span aria-hidden="true">{text}</span>
      <span className="tango-visually-hidden">{label}</span>
    </span>
  );
}
