/** JSON's whitespace (RFC 8259): space, tab, carriage return, line feed. */
const isJsonWhitespace = (byte: number): boolean => byte === 0x20 || byte === 0x09 || byte === 0x0d || byte === 0x0a;

/**
 * True when `bytes[start, end)` holds nothing but JSON whitespace (or nothing at all): a blank
 * line (docs/rules.md#blank-lines). Told from the bytes, so a blank line costs a byte comparison
 * instead of a JSON.parse that throws; an event line starts with `{`, so the loop stops at once.
 */
export const isBlankRange = (bytes: Uint8Array, start: number, end: number): boolean => {
  for (let index = start; index < end; index += 1) {
    if (!isJsonWhitespace(bytes[index] as number)) return false;
  }
  return true;
};

export const isBlankLine = (bytes: Uint8Array): boolean => isBlankRange(bytes, 0, bytes.length);
