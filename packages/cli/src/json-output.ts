import type { CliIo } from './cli-io';
import { jsonPieces } from './json-pieces';

/** Bigints (positions) as decimal strings: JSON has no bigint. */
const replacer = (_key: string, value: unknown): unknown => (typeof value === 'bigint' ? value.toString() : value);

/** Text handed to stdout at a time: pieces are gathered up to this, so a large document is never one string. */
const writeBytes = 64 * 1024;

/** The document's text in runs of about `writeBytes`, the last one ending with the document's newline. */
function* runsOf(value: unknown): Generator<string, void, undefined> {
  let pending = '';
  for (const piece of jsonPieces(value, replacer)) {
    pending += piece;
    if (pending.length >= writeBytes) {
      yield pending;
      pending = '';
    }
  }
  yield `${pending}\n`;
}

/** One JSON document on stdout, pretty-printed, ending with a newline (written in pieces, see json-pieces.ts). */
export const writeJson = (io: CliIo, value: unknown): void => {
  for (const run of runsOf(value)) io.stdout(run);
};

/**
 * The same document, waiting for stdout to drain after each run: a pipe takes writes
 * asynchronously, and a large document (a replay's) would otherwise wait in memory whole.
 */
export const writeJsonDrained = async (io: CliIo, value: unknown): Promise<void> => {
  for (const run of runsOf(value)) {
    io.stdout(run);
    await io.stdoutDrained?.();
  }
};
