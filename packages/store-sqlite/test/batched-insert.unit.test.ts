import Database from 'better-sqlite3';
import { BatchedInsert } from '../src/views/batched-insert';
import { routeWrites } from '../src/write-route';

const table = () => {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT NOT NULL)');
  const rows = () => db.prepare('SELECT k, v FROM t ORDER BY k').all();
  return { db, rows };
};

describe('rows of one insert written many to a statement', () => {
  it('writes every row added, full statements as they fill and the rest at the flush', () => {
    const { db, rows } = table();
    const insert = new BatchedInsert(db, 'INSERT INTO t (k, v)', 2);
    for (let k = 0; k < 130; k += 1) insert.add([k, `v${k}`]);
    expect(rows()).toHaveLength(128);
    insert.flush();
    expect(rows()).toEqual(Array.from({ length: 130 }, (_, k) => ({ k, v: `v${k}` })));
  });

  it('resolves repeated keys in the order the rows were added, as one statement per row would', () => {
    const { db, rows } = table();
    const replace = new BatchedInsert(db, 'INSERT OR REPLACE INTO t (k, v)', 2);
    replace.add([1, 'first']);
    replace.add([1, 'last']);
    replace.flush();
    const ignore = new BatchedInsert(db, 'INSERT OR IGNORE INTO t (k, v)', 2);
    ignore.add([2, 'first']);
    ignore.add([2, 'last']);
    ignore.flush();
    expect(rows()).toEqual([
      { k: 1, v: 'last' },
      { k: 2, v: 'first' },
    ]);
  });

  it('forgets the rows not written when cleared, and refuses a row of the wrong width', () => {
    const { db, rows } = table();
    const insert = new BatchedInsert(db, 'INSERT INTO t (k, v)', 2);
    insert.add([1, 'a']);
    insert.clear();
    insert.flush();
    expect(rows()).toEqual([]);
    expect(() => insert.add([1])).toThrow(/expected 2/);
  });

  it('hands a route rows that stay as they were added, though its own arrays are reused for later rows', () => {
    const { db } = table();
    const insert = new BatchedInsert(db, 'INSERT INTO t (k, v)', 2);
    const routed: unknown[][] = [];
    const unroute = routeWrites(db, { run: (_sql, params) => routed.push(params as unknown[]) });
    for (let k = 0; k < 66; k += 1) insert.add([k, `v${k}`]);
    insert.flush();
    for (let k = 66; k < 130; k += 1) insert.add([k, `v${k}`]);
    unroute();
    expect(routed.flat()).toEqual(Array.from({ length: 130 }, (_, k) => [k, `v${k}`]).flat());
  });

  it('hands a statement its values as arguments, not as one array', () => {
    const { db } = table();
    const insert = new BatchedInsert(db, 'INSERT INTO t (k, v)', 2);
    const routed: unknown[][] = [];
    const unroute = routeWrites(db, { run: (_sql, params) => routed.push(params as unknown[]) });
    for (let k = 0; k < 65; k += 1) insert.add([k, `v${k}`]);
    insert.flush();
    unroute();
    expect(routed.map((params) => params.length)).toEqual([128, 2]);
  });

  it('keeps no value of a written row in its arrays', () => {
    const { db, rows } = table();
    const insert = new BatchedInsert(db, 'INSERT INTO t (k, v)', 2);
    for (let k = 0; k < 65; k += 1) insert.add([k, `v${k}`]);
    insert.flush();
    const { values, oneRow } = insert as unknown as { values: unknown[]; oneRow: unknown[] };
    expect([...values, ...oneRow].every((value) => value === null)).toBe(true);
    expect(rows()).toHaveLength(65);
  });
});
