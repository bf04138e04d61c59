import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { type EventDigest, eventDigest } from '@teamlog/store';
import { unpackStagedRows } from './staged-row-buffer';
import type { StagingReply, StagingRequest, StagingThreadData } from './sqlite-staging-protocol';

/*
 * The staging thread of a SQLite store (sqlite-staging-thread.ts): it owns a scratch SQLite file
 * of its own, where it decodes each transferred batch of a unit's rows, chains them from the
 * predecessor digest the store gave, and writes them. The store's commit reads them from there in
 * its own transaction. Messages are handled in the order they were sent.
 */

const port = parentPort;
if (port === null) throw new Error('sqlite-staging-worker runs as a worker thread');
const { file } = workerData as StagingThreadData;

// A commit reads this file while the thread may stage another unit's rows: the writer waits for it.
const db = new Database(file, { timeout: 5 * 60_000 });
// A scratch file: nothing in it outlives the store that opened it, so no journal and no sync.
db.pragma('journal_mode = OFF');
db.pragma('synchronous = OFF');
db.exec(`CREATE TABLE IF NOT EXISTS staged_events (
  unit INTEGER NOT NULL, stream_name TEXT NOT NULL, offset INTEGER NOT NULL,
  event_id TEXT NOT NULL, type TEXT NOT NULL, data TEXT NOT NULL, metadata TEXT, digest TEXT
)`);
const insert = db.prepare(
  'INSERT INTO staged_events (unit, stream_name, offset, event_id, type, data, metadata, digest) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
);
const drop = db.prepare('DELETE FROM staged_events WHERE unit = ?');
/** The digest the last staged row of each unit's stream ends on. */
const chains = new Map<string, EventDigest | undefined>();

const stage = db.transaction((request: Extract<StagingRequest, { kind: 'rows' }>) => {
  const key = `${request.unit} ${request.stream}`;
  let previous = request.first === 0 ? request.previousDigest : chains.get(key);
  unpackStagedRows(request.rows).forEach(([id, type, data, metadata], index) => {
    const digest = request.chained ? eventDigest(previous, { type, data, metadata }) : null;
    if (digest !== null) previous = digest;
    insert.run(request.unit, request.stream, request.first + index, id, type, data, metadata, digest);
  });
  chains.set(key, previous);
});

const reply = (message: StagingReply): void => port.postMessage(message);

port.on('message', (request: StagingRequest) => {
  try {
    switch (request.kind) {
      case 'rows':
        try {
          stage(request);
        } finally {
          reply({ kind: 'staged', unit: request.unit });
        }
        return;
      case 'drop':
        drop.run(request.unit);
        for (const key of chains.keys()) if (key.startsWith(`${request.unit} `)) chains.delete(key);
        return;
      case 'flush':
        reply({ kind: 'flushed', token: request.token });
        return;
      case 'close':
        db.close();
        port.close();
        return;
      default: {
        const never: never = request;
        throw new Error(`unknown staging request ${JSON.stringify(never)}`);
      }
    }
  } catch (error) {
    reply({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
  }
});
