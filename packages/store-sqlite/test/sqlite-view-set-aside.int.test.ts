import Database from 'better-sqlite3';
import type { MessageId, SessionId } from '@teamlog/events';
import { initialProjectionState } from '@teamlog/projections';
import { SqliteViewStore } from '../src';
import { tempStoreFile } from './temp-store-file';

const sessionId = 'session-set-aside' as SessionId;
const heldCount = (db: Database.Database): number =>
  (db.prepare('SELECT COUNT(*) AS count FROM projection_held_messages').get() as { count: number }).count;

describe('SqliteViewStore: held ids set aside by a unit that writes in place', () => {
  const { file, cleanup } = tempStoreFile();
  const db = new Database(file);
  const views = new SqliteViewStore(db, file);
  afterAll(() => {
    db.close();
    cleanup();
  });

  it('given the set-aside table was first made inside a unit that rolled back, when the views are restored and a later unit sets ids aside, then its commit writes them', () => {
    const rolledBack = initialProjectionState();
    db.exec('BEGIN IMMEDIATE');
    rolledBack.changes.held.push({ sessionId, messageId: 'message-lost' as MessageId, seq: 1 });
    views.setAside(rolledBack);
    db.exec('ROLLBACK');

    const { state } = views.restoreNow();
    state.changes.held.push({ sessionId, messageId: 'message-kept' as MessageId, seq: 2 });
    views.setAside(state);
    views.commitNow(state, { commit: 2n, prepare: 2n });

    expect(heldCount(db)).toBe(1);
  });
});
