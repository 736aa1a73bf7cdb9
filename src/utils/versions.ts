/**
 * Compares two dotted version numbers numerically, part by part; a missing part counts as 0
 * (`"2.0"` equals `"2.0.0"`, `"1.9"` sorts before `"1.15"`).
 *
 * @param a A version such as `"1.22"` or `"2.1.1"` (callers validate the format).
 * @param b The other version.
 * @returns A negative number when `a < b`, zero when equal, positive when `a > b`, as
 *   `Array.prototype.sort` expects. Errors: none.
 */
export function compareVersions(a: string, b: string): number {
  const left = a.split('.').map(Number);
  const right = b.split('.').map(Number);
  for (let i = 0; i < Math.max(left.length, right.length); i += 1) {
    const difference = (left[i] ?? 0) - (right[i] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}
