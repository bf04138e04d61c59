import Database from 'better-sqlite3';
import { BatchedInsert } from '../src/views/batched-insert';

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
});
