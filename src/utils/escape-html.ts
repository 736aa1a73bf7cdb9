/**
 * Text as HTML: `&`, `<` and `>` escaped (enough for element content, not for attributes).
 * Input: any string. Output: the escaped string. Errors: none.
 */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
