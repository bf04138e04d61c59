#!/usr/bin/env node
// @ts-check
/**
 * Measures the schema's stream key alone, without the store (not a test: nothing here asserts a
 * duration): the same event rows inserted into `events` keyed by the stream's name (the schema of
 * migrations/sqlite, as stored today) and keyed by a small integer (`stream_id`, the name once in a
 * `streams` table), with the store's pragmas and transaction shapes.
 *
 *   node packages/bench/scripts/stream-key-inserts.js SOURCE.db OUT_DIR
 *        [--key name|id] [--shape unit|send1|send64] [--rows 100000] [--skip 0] [--no-stat]
 *   node packages/bench/scripts/stream-key-inserts.js SOURCE.db - --rows N --save-rows ROWS.v8
 *
 * SOURCE.db: a store file a `teamlog replay` wrote (its rows are read back in position order,
 * digest included), or a ROWS.v8 file `--save-rows` wrote from one. Shapes:
 *   unit:   a new file's import (bulk-load-journal.ts): rollback journal, synchronous=FULL, 2 MiB
 *           page cache, one transaction, `INSERT OR ROLLBACK` of 64 rows a statement with explicit
 *           positions (events-insert-statements.ts).
 *   send1:  WAL, synchronous=FULL, one row per `BEGIN IMMEDIATE` transaction (one awaited sender).
 *   send64: the same with 64 rows per transaction in one statement (a 64-sender group).
 * The id key resolves a stream's id from a per-connection map of committed ids, inserting the
 * `streams` row in the same transaction when the stream is new (what a store would do).
 * Prints one JSON line: CPU of the inserts (user+sys, ms), bytes written (/proc/self/io), the
 * file's size and page counts per B-tree. For SQLite's own instructions run it under
 * `valgrind --tool=callgrind --toggle-collect=sqlite3_step`.
 */
const fs = require('node:fs');
const path = require('node:path');
const v8 = require('node:v8');
const Database = require('better-sqlite3');

const flag = (args, name, fallback) => {
  const index = args.indexOf(name);
  return index === -1 ? fallback : args[index + 1];
};

const writeBytes = () => Number(/^write_bytes:\s+(\d+)/m.exec(fs.readFileSync('/proc/self/io', 'utf8'))?.[1]);

const schemas = {
  name: `CREATE TABLE events (
    position     INTEGER PRIMARY KEY,
    stream_name  TEXT    NOT NULL,
    revision     INTEGER NOT NULL,
    event_id     TEXT    NOT NULL UNIQUE,
    type         TEXT    NOT NULL,
    data         TEXT    NOT NULL,
    metadata     TEXT,
    recorded_at  INTEGER NOT NULL,
    digest       TEXT,
    UNIQUE (stream_name, revision)
  );`,
  id: `CREATE TABLE streams (
    stream_id    INTEGER PRIMARY KEY,
    stream_name  TEXT    NOT NULL UNIQUE
  );
  CREATE TABLE events (
    position     INTEGER PRIMARY KEY,
    stream_id    INTEGER NOT NULL,
    revision     INTEGER NOT NULL,
    event_id     TEXT    NOT NULL UNIQUE,
    type         TEXT    NOT NULL,
    data         TEXT    NOT NULL,
    metadata     TEXT,
    recorded_at  INTEGER NOT NULL,
    digest       TEXT,
    UNIQUE (stream_id, revision)
  );`,
};

/** The rows to insert: from a store file, or from a `--save-rows` file (so that no SQLite read runs in a callgrind profile). */
const readRows = (source, rowCount, skip) => {
  if (source.endsWith('.v8')) return v8.deserialize(fs.readFileSync(source)).slice(skip, skip + rowCount);
  const sourceDb = new Database(source, { readonly: true });
  const rows = sourceDb
    .prepare(
      'SELECT position, stream_name, revision, event_id, type, data, metadata, recorded_at, digest FROM events ORDER BY position LIMIT ? OFFSET ?',
    )
    .raw()
    .all(rowCount, skip);
  sourceDb.close();
  return rows;
};

const main = () => {
  const args = process.argv.slice(2);
  const [source, outDir] = args;
  if (source === undefined || outDir === undefined) throw new Error('usage: stream-key-inserts.js SOURCE.db OUT_DIR');
  const key = flag(args, '--key', 'name');
  const shape = flag(args, '--shape', 'unit');
  const rowCount = Number(flag(args, '--rows', '100000'));
  const skip = Number(flag(args, '--skip', '0'));
  if (!(key in schemas)) throw new Error(`--key name|id, got ${key}`);

  const rows = readRows(source, rowCount, skip);
  const saveRows = flag(args, '--save-rows', undefined);
  if (saveRows !== undefined) {
    fs.writeFileSync(saveRows, v8.serialize(rows));
    return;
  }

  fs.mkdirSync(outDir, { recursive: true });
  const file = path.join(outDir, `${key}-${shape}.db`);
  for (const suffix of ['', '-wal', '-shm', '-journal']) fs.rmSync(file + suffix, { force: true });
  const db = new Database(file);
  db.pragma(shape === 'unit' ? 'journal_mode = DELETE' : 'journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('cache_size = -2048');
  db.exec(schemas[key]);

  const columns = [
    'position',
    key === 'name' ? 'stream_name' : 'stream_id',
    'revision',
    'event_id',
    'type',
    'data',
    'metadata',
    'recorded_at',
    'digest',
  ];
  const width = columns.length;
  const perStatement = shape === 'send1' ? 1 : 64;
  const inserts = new Map();
  const insertOf = (count) => {
    let statement = inserts.get(count);
    if (statement === undefined) {
      const placeholders = `(${columns.map(() => '?').join(', ')})`;
      statement = db.prepare(
        `INSERT OR ROLLBACK INTO events (${columns.join(', ')}) VALUES ${Array.from({ length: count }, () => placeholders).join(', ')}`,
      );
      inserts.set(count, statement);
    }
    return statement;
  };
  const insertStream = key === 'id' ? db.prepare('INSERT INTO streams (stream_name) VALUES (?)') : undefined;
  const committedIds = new Map();
  const begin = db.prepare('BEGIN IMMEDIATE');
  const commit = db.prepare('COMMIT');

  /** One transaction of rows [from, to), in statements of `perStatement` rows. */
  const transaction = (from, to) => {
    begin.run();
    const pending = new Map();
    const streamId = (name) => {
      let id = committedIds.get(name) ?? pending.get(name);
      if (id === undefined) {
        id = Number(insertStream?.run(name).lastInsertRowid);
        pending.set(name, id);
      }
      return id;
    };
    for (let start = from; start < to; start += perStatement) {
      const end = Math.min(to, start + perStatement);
      const values = new Array((end - start) * width);
      for (let row = start; row < end; row += 1) {
        const at = (row - start) * width;
        const fields = rows[row];
        for (let column = 0; column < width; column += 1) values[at + column] = fields[column];
        if (key === 'id') values[at + 1] = streamId(fields[1]);
      }
      insertOf(end - start).run(values);
    }
    commit.run();
    for (const [name, id] of pending) committedIds.set(name, id);
  };

  const perTransaction = shape === 'unit' ? rows.length : shape === 'send1' ? 1 : 64;
  const writtenBefore = writeBytes();
  const cpuBefore = process.cpuUsage();
  for (let start = 0; start < rows.length; start += perTransaction)
    transaction(start, Math.min(rows.length, start + perTransaction));
  const cpu = process.cpuUsage(cpuBefore);
  const written = writeBytes() - writtenBefore;
  db.pragma('wal_checkpoint(TRUNCATE)');
  // --no-stat: no dbstat scan, whose sqlite3_step calls a callgrind profile would count.
  const pages = args.includes('--no-stat')
    ? {}
    : Object.fromEntries(
        db.prepare('SELECT name, COUNT(*) AS pages FROM dbstat GROUP BY name ORDER BY name').raw().all(),
      );
  db.close();
  process.stdout.write(
    `${JSON.stringify({
      key,
      shape,
      rows: rows.length,
      cpuMs: Math.round((cpu.user + cpu.system) / 1000),
      writtenMiB: Math.round((written / 2 ** 20) * 10) / 10,
      fileMiB: Math.round((fs.statSync(file).size / 2 ** 20) * 10) / 10,
      pages,
    })}\n`,
  );
};

main();
