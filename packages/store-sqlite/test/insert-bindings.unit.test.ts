import Database from 'better-sqlite3';
import { InsertBindings, boundInteger } from '../src/insert-bindings';

describe('the values of a multi-row insert', () => {
  it('are one array per row count, handed out again once released and emptied of its values', () => {
    const bindings = new InsertBindings(3);
    const first = bindings.of(2);
    expect(first).toHaveLength(6);
    first.fill('row');
    bindings.release(first);
    expect(first.every((value) => value === null)).toBe(true);
    expect(bindings.of(2)).toBe(first);
    expect(bindings.of(1)).toHaveLength(3);
  });

  it('bind positions as numbers while exact and as BigInts past 2^53, stored as the same integers either way', () => {
    expect(boundInteger(10n)(5)).toBe(15);
    const far = 2n ** 60n;
    expect(boundInteger(far)(5)).toBe(far + 5n);
    const db = new Database(':memory:');
    db.defaultSafeIntegers(true);
    db.exec('CREATE TABLE t (position INTEGER PRIMARY KEY, revision INTEGER NOT NULL)');
    const insert = db.prepare('INSERT INTO t (position, revision) VALUES (?, ?)');
    insert.run(boundInteger(1n)(0), boundInteger(41n)(1));
    insert.run(boundInteger(far)(1), boundInteger(far)(2));
    expect(db.prepare('SELECT position, revision, typeof(revision) AS kind FROM t ORDER BY position').all()).toEqual([
      { position: 1n, revision: 42n, kind: 'integer' },
      { position: far + 1n, revision: far + 2n, kind: 'integer' },
    ]);
  });
});
