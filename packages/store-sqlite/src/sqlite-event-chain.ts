import type Database from 'better-sqlite3';
import { type EventDigest, type StoredLink, type StreamName, eventDigest } from '@teamlog/store';

/*
 * Where the SQLite store keeps its hash chains (docs/trust-boundary.md): the `digest` column of
 * `events`, computed by the store package's eventDigest over the exact text inserted. Appends take
 * the predecessor's digest here and pass each event's digest with its insert.
 */

/** Registers teamlog_event_digest(previous, type, data, metadata), which the chain migration runs. */
export const registerChainFunctions = (db: Database.Database): void => {
  db.function(
    'teamlog_event_digest',
    { deterministic: true },
    (previous: unknown, type: unknown, data: unknown, metadata: unknown) =>
      eventDigest(typeof previous === 'string' ? previous : undefined, {
        type: String(type),
        data: String(data),
        metadata: typeof metadata === 'string' ? metadata : null,
      }),
  );
};

/** Whether the file's schema has the chain column (a store opened with older migrations, in tests, has not). */
export const hasChainColumn = (db: Database.Database): boolean =>
  db.prepare("SELECT 1 FROM pragma_table_info('events') WHERE name = 'digest'").get() !== undefined;

/**
 * The running digest of one stream while a batch is inserted: seeded with the stored digest of the
 * stream's last event, advanced per event. Also reachable from SQL as teamlog_chain_next(type, data,
 * metadata), so a copy of staged rows (INSERT … SELECT in rowid order) chains them in one statement.
 */
export class ChainCursor {
  private readonly predecessor: Database.Statement<[string, number | bigint], { digest: string | null }> | undefined;
  private previous: EventDigest | undefined;

  constructor(
    db: Database.Database,
    readonly chained: boolean,
  ) {
    this.predecessor = chained
      ? db.prepare('SELECT digest FROM events WHERE stream_name = ? AND revision = ?')
      : undefined;
    db.function('teamlog_chain_next', { deterministic: false }, (type: unknown, data: unknown, metadata: unknown) =>
      this.next(String(type), String(data), typeof metadata === 'string' ? metadata : null),
    );
  }

  /** Before a stream's first event of a batch at `revision`. */
  seek(stream: StreamName, revision: bigint): void {
    this.previous =
      revision === 0n || this.predecessor === undefined
        ? undefined
        : (this.predecessor.get(stream, revision - 1n)?.digest ?? undefined);
  }

  /** Before a stream's next event when its predecessor's digest is known (planned earlier in a group, not inserted yet). */
  resume(previous: EventDigest | undefined): void {
    this.previous = previous;
  }

  /** The digest of the last event `next` chained (what a later batch of the same stream resumes from). */
  get current(): EventDigest | undefined {
    return this.previous;
  }

  /** The digest of the next event, over the exact text that is inserted. */
  next(type: string, data: string, metadata: string | null): EventDigest {
    this.previous = eventDigest(this.previous, { type, data, metadata });
    return this.previous;
  }
}

interface LinkRow {
  stream_name: string;
  revision: number | bigint;
  type: string;
  data: string;
  metadata: string | null;
  digest: string | null;
}

const linkPage = 1000;

/** Every stored event as its bytes and digest, stream by stream in revision order (for the audit). */
export function* storedLinks(db: Database.Database): Generator<StoredLink> {
  const page = db.prepare<[string, number | bigint, number], LinkRow>(
    `SELECT stream_name, revision, type, data, metadata, digest FROM events
      WHERE (stream_name, revision) > (?, ?) ORDER BY stream_name, revision LIMIT ?`,
  );
  let after: [string, number | bigint] = ['', -1];
  for (;;) {
    const rows = page.all(after[0], after[1], linkPage);
    for (const row of rows) {
      yield {
        streamName: row.stream_name as StreamName,
        revision: BigInt(row.revision),
        type: row.type,
        data: row.data,
        metadata: row.metadata,
        digest: row.digest,
      };
    }
    const last = rows[rows.length - 1];
    if (last === undefined || rows.length < linkPage) return;
    after = [last.stream_name, last.revision];
  }
}
