import type { CliIo } from './cli-io';
import { jsonPieces } from './json-pieces';

/** Bigints (positions) as decimal strings: JSON has no bigint. */
const replacer = (_key: string, value: unknown): unknown => (typeof value === 'bigint' ? value.toString() : value);

/** Text handed to stdout at a time: pieces are gathered up to this, so a large document is never one string. */
const writeBytes = 64 * 1024;

/** One JSON document on stdout, pretty-printed, ending with a newline (written in pieces, see json-pieces.ts). */
export const writeJson = (io: CliIo, value: unknown): void => {
  let pending = '';
  for (const piece of jsonPieces(value, replacer)) {
    pending += piece;
    if (pending.length >= writeBytes) {
      io.stdout(pending);
      pending = '';
    }
  }
  io.stdout(`${pending}\n`);
};
