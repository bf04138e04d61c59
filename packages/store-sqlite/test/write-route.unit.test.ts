import Database from 'better-sqlite3';
import { SqliteViewStore } from '../src';
import { routeWrites, writeStatement, writesRouted } from '../src/write-route';

/*
 * While a unit's writer thread holds the file's write transaction, the views' writes on the
 * importing connection are routed to it (sqlite-writer-unit.ts): none runs on that connection.
 */

describe('a connection whose writes are routed', () => {
  it('runs a write statement on its connection, or hands its SQL and values to the route while one is set', () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT NOT NULL)');
    const insert = writeStatement(db, 'INSERT INTO t (k, v) VALUES (?, ?)');
    const routed: Array<[string, readonly unknown[]]> = [];
    insert.run(1, 'here');
    const unroute = routeWrites(db, { run: (sql, params) => routed.push([sql, params]) });
    expect(writesRouted(db)).toBe(true);
    insert.run(2, 'elsewhere');
    unroute();
    insert.run(3, 'here again');
    expect(writesRouted(db)).toBe(false);
    expect(routed).toEqual([['INSERT INTO t (k, v) VALUES (?, ?)', [2, 'elsewhere']]]);
    expect(db.prepare('SELECT k FROM t ORDER BY k').pluck().all()).toEqual([1, 3]);
  });

  it("has the view store's commit write nothing on its own connection, in no transaction of its own, and route every row", () => {
    const db = new Database(':memory:');
    const views = new SqliteViewStore(db, ':memory:');
    const { state } = views.loadNow();
    const routed: Array<[string, readonly unknown[]]> = [];
    const unroute = routeWrites(db, {
      run: (sql, params) => {
        // A transaction of its own on this connection would wait for the writer's lock.
        expect(db.inTransaction).toBe(false);
        routed.push([sql, params]);
      },
    });
    views.commitNow(state, { commit: 7n, prepare: 7n });
    unroute();
    expect(db.prepare('SELECT COUNT(*) FROM projection_checkpoints').pluck().get()).toBe(0);
    expect(routed.map(([sql]) => sql.split('(')[0]?.trim())).toEqual(['INSERT INTO projection_checkpoints']);
    for (const [sql, params] of routed) db.prepare(sql).run(...params);
    expect(db.prepare('SELECT position_commit FROM projection_checkpoints').pluck().get()).toBe('7');
  });
});
