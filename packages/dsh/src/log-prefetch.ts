import { promises as fs } from 'node:fs';
import { readFileChunks } from './file-chunks';
import { readChunkBytes } from './log-byte-source';
import { type ReadSessionLogOptions, type SessionLogReader, openSessionLog } from './session-log-reader';

/**
 * What an import reads of a file before its events, asked for ahead of the import: the head (as
 * `openSessionLog` reads it), the file's size, and the validating read's opened file with its
 * first chunk asked for. A many-file import asks for the next file's while it imports the current
 * one, so the opens, stats and first reads are in flight, not waited for in turn. Memory: the
 * head read's buffer and at most two read buffers of the file (the first chunk and the one its
 * read-ahead asks for), never the whole file.
 */
export interface PrefetchedLog {
  readonly file: string;
  readonly reader: Promise<SessionLogReader>;
  readonly size: Promise<number>;
  /** The file's chunks for the validating read; read at most once. */
  readonly opened: Promise<AsyncGenerator<Buffer>>;
  /** Close what the import did not read (the file's handle, a read in flight); idempotent. */
  readonly release: () => Promise<void>;
}

/** A promise whose failure is held for whoever awaits it (never an unhandled rejection meanwhile). */
const held = <A>(promise: Promise<A>): Promise<A> => {
  promise.catch(() => undefined);
  return promise;
};

/** `chunks` with its first chunk asked for now, handed on when the consumer asks; closing it closes `chunks`. */
const askedAhead = (chunks: AsyncGenerator<Buffer>): AsyncGenerator<Buffer> => {
  const first = held(chunks.next());
  return (async function* firstThenRest(): AsyncGenerator<Buffer> {
    try {
      const result = await first;
      if (result.done === true) return;
      yield result.value;
      yield* chunks;
    } finally {
      await chunks.return(undefined);
    }
  })();
};

/** Ask for what an import of `file` reads before its events (see `PrefetchedLog`). */
export const prefetchLog = (file: string, options: ReadSessionLogOptions): PrefetchedLog => {
  let inner: AsyncGenerator<Buffer> | undefined;
  const opened = held(
    readFileChunks(file, readChunkBytes).then((chunks) => {
      inner = chunks;
      return askedAhead(chunks);
    }),
  );
  return {
    file,
    reader: held(openSessionLog(file, options)),
    size: held(fs.stat(file).then((stat) => stat.size)),
    opened,
    release: async () => {
      const outer = await opened.catch(() => undefined);
      await outer?.return(undefined);
      // A wrapper never started does not run its `finally`: the file's own chunks are closed here.
      await inner?.return(undefined);
    },
  };
};
