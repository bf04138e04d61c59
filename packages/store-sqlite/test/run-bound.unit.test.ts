import Database from 'better-sqlite3';
import { type RunnableStatement, maxArgumentValues, runBound } from '../src/run-bound';

/** A statement that records how its values arrived. */
const recording = () => {
  const calls: unknown[][] = [];
  const statement: RunnableStatement = {
    run: (...params: unknown[]) => {
      calls.push(params);
      return { changes: 1, lastInsertRowid: 1 };
    },
  };
  return { calls, statement };
};

describe('runBound', () => {
  it('hands the values over as the statement arguments, not as one array', () => {
    const { calls, statement } = recording();
    runBound(statement, ['a', 1n, null]);
    expect(calls).toEqual([['a', 1n, null]]);
  });

  it(`hands more than ${maxArgumentValues} values over as one array`, () => {
    const { calls, statement } = recording();
    const values = Array.from({ length: maxArgumentValues + 1 }, (_, index) => index);
    runBound(statement, values);
    expect(calls).toEqual([[values]]);
  });

  it('stores the same row either way', () => {
    const db = new Database(':memory:');
    try {
      db.exec('CREATE TABLE t (a TEXT, b INTEGER, c TEXT)');
      const insert = db.prepare('INSERT INTO t (a, b, c) VALUES (?, ?, ?), (?, ?, ?)');
      runBound(insert, ['x', 1, null, 'y', 2, '{}']);
      insert.run(['x', 1, null, 'y', 2, '{}']);
      const rows = db.prepare('SELECT a, b, typeof(b) AS bt, c FROM t').all();
      expect(rows.slice(0, 2)).toEqual(rows.slice(2));
    } finally {
      db.close();
    }
  });
});
