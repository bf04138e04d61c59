import { promises as fs } from 'node:fs';
import { chunksOf } from './file-chunks';
import { readChunkBytes } from './log-byte-source';
import { type ReadSessionLogOptions, type SessionLogReader, openSessionLog } from './session-log-reader';

/**
 * What an import reads of a file before its events, asked for ahead of the import: the head (as
 * `openSessionLog` reads it), and the validating read's file opened, with its size. A many-file
 * import asks for the next file's while it imports the current one, so those opens, stats and the
 * head's read are in flight, not waited for in turn. The validating read's first chunk is asked
 * for only when that read starts: a buffer read ahead of a whole file's import outlives the young
 * generation, and the promoted buffers held 8-15 MiB more at peak (docs/benchmarks.md, _A many-file
 * replay asks for the next file ahead_). Memory: the head read's buffers, never the file.
 */
export interface PrefetchedLog {
  readonly file: string;
  readonly reader: Promise<SessionLogReader>;
  readonly size: Promise<number>;
  /** The file's chunks for the validating read; read at most once. */
  readonly opened: Promise<AsyncGenerator<Buffer>>;
  /** Close what the import did not read (the file's handle); idempotent. */
  readonly release: () => Promise<void>;
}

/** A promise whose failure is held for whoever awaits it (never an unhandled rejection meanwhile). */
const held = <A>(promise: Promise<A>): Promise<A> => {
  promise.catch(() => undefined);
  return promise;
};

/**
 * Ask for what an import of `file` reads before its events (see `PrefetchedLog`). The size is the
 * opened file's own (`fstat`), which the chunks' reads are sized from too: one call for both.
 */
export const prefetchLog = (file: string, options: ReadSessionLogOptions): PrefetchedLog => {
  const handle = held(fs.open(file, 'r'));
  const size = held(handle.then(async (opened) => (await opened.stat()).size));
  const opened = held(
    handle.then((opened) =>
      chunksOf(
        {
          stat: async () => ({ size: await size }),
          read: (buffer, offset, length, position) => opened.read(buffer, offset, length, position),
          close: () => opened.close(),
        },
        readChunkBytes,
      ),
    ),
  );
  return {
    file,
    reader: held(openSessionLog(file, options)),
    size,
    opened,
    release: async () => {
      await (await opened.catch(() => undefined))?.return(undefined);
      // Chunks never asked for do not run their `finally`: the handle is closed here (a second close is nothing).
      await (await handle.catch(() => undefined))?.close();
    },
  };
};
