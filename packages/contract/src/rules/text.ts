export const UNREADABLE_TEXT =
  'This contains characters we cannot read. Remove them and try again.';

/**
 * Text a person typed contains none of these: control characters other than tab and line breaks
 * (NUL cannot even be stored in PostgreSQL text), lone UTF-16 surrogates, and U+FFFD, which is what
 * bytes that are not UTF-8 become when a body is decoded. Single-line text allows no line breaks.
 */
export function hasUnreadableCharacters(value: string, multiline = false): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 0xfffd) return true;
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) {
      if (multiline && (c === 0x09 || c === 0x0a || c === 0x0d)) continue;
      return true;
    }
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = value.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return true;
      i++;
      continue;
    }
    if (c >= 0xdc00 && c <= 0xdfff) return true;
  }
  return false;
}
