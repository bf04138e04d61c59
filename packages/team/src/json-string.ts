/** What JSON.stringify escapes in a string: the quote, the backslash, control characters, and (lone) surrogates. */
const needsEscape = /["\\\u0000-\u001f\ud800-\udfff]/;

/**
 * `JSON.stringify(text)` for a string: quoted as it is unless it holds a character JSON escapes
 * (then JSON.stringify writes it), so a hand-built text is byte for byte what JSON.stringify writes.
 */
export const jsonString = (text: string): string => (needsEscape.test(text) ? JSON.stringify(text) : `"${text}"`);

/** Whether JSON writes `text` as it is between its quotes (a caller can then put the quotes into its own literal pieces). */
export const isPlainJsonString = (text: string): boolean => !needsEscape.test(text);
