import Database from 'better-sqlite3';
import { type JsonObject, type SessionId, sequentialIds } from '@teamlog/events';
import { type AuditFinding, TeamlogProjections } from '@teamlog/projections';
import { type EventStore, type RecordedEvent, sessionStream } from '@teamlog/store';
import { SqliteEventStore } from '@teamlog/store-sqlite';
import { type TeamLog, createTeamLog } from '@teamlog/team';
import { tempFile } from './temp-file';

/*
 * Stores an auditor may be handed: one member (alice) sends another (bob) one message through the
 * engine, then the store is made inconsistent through the EventStore port or by editing the file.
 */

interface Scene {
  readonly file: string;
  readonly store: SqliteEventStore;
  readonly teamlog: TeamLog;
  readonly lead: SessionId;
  readonly alice: SessionId;
  readonly bob: SessionId;
  readonly cleanup: () => void;
}

const scene = async (): Promise<Scene> => {
  const { file, cleanup } = tempFile();
  const store = SqliteEventStore.open(file);
  let tick = Date.UTC(2026, 9, 10);
  const teamlog = createTeamLog({ store, ids: sequentialIds('n'), clock: () => new Date((tick += 1000)) });
  const lead = await teamlog.createTeam();
  await teamlog.runtime(lead.sessionId).start();
  const ids: SessionId[] = [];
  for (const name of ['alice', 'bob']) {
    const spawned = await lead.spawnMember({ name, description: name, provider: 'scripted' });
    await teamlog.runtime(spawned.sessionId).start();
    ids.push(spawned.sessionId);
  }
  const [alice, bob] = ids as [SessionId, SessionId];
  await (await teamlog.openMember(lead.teamId, alice)).send({ target: 'bob', message: 'The importer is done.' });
  return { file, store, teamlog, lead: lead.sessionId, alice, bob, cleanup };
};

const lastOf = async (store: EventStore, session: SessionId): Promise<RecordedEvent> => {
  let last: RecordedEvent | undefined;
  for await (const event of store.readStream(sessionStream(session))) last = event;
  if (last === undefined) throw new Error(`no events in ${session}`);
  return last;
};

const auditOf = async (store: EventStore): Promise<AuditFinding[]> => {
  const projections = await TeamlogProjections.inMemory(store);
  await projections.catchUp();
  return projections.views().audit();
};

const codesOf = async (store: EventStore): Promise<string[]> =>
  [...new Set((await auditOf(store)).map((finding) => finding.code))].sort();

/** A copy of alice's acceptance in bob's stream, as a forger would append it through the port. */
const forgedCopy = async (
  s: Scene,
  change: {
    readonly sender?: SessionId;
    readonly senderName?: string;
    readonly metadata?: (metadata: JsonObject) => JsonObject;
    readonly messageId?: string;
    readonly into?: SessionId;
  },
): Promise<void> => {
  const genuine = await lastOf(s.store, s.bob);
  const data = genuine.data as JsonObject & { message: JsonObject & { source: JsonObject } };
  const senderName = change.senderName ?? (data.message.source.senderName as string);
  const copy = {
    ...data,
    message: {
      ...data.message,
      id: change.messageId ?? `forged-${senderName}`,
      content: [
        { type: 'text', text: `Team message from ${senderName}:` },
        { type: 'text', text: 'Ship it.' },
      ],
      source: {
        ...data.message.source,
        senderSessionId: change.sender ?? (data.message.source.senderSessionId as string),
        senderName,
      },
    },
  };
  const metadata = genuine.metadata as JsonObject;
  await s.store.appendToStream(sessionStream(change.into ?? s.bob), [
    {
      id: `forged-event-${senderName}` as RecordedEvent['id'],
      type: genuine.type,
      data: copy,
      metadata: change.metadata === undefined ? metadata : change.metadata(metadata),
    },
  ]);
};

/** The store reopened after the acceptance's `data` text was edited in the SQLite file. */
const editAcceptanceText = async (s: Scene, edit: (text: string) => string): Promise<Scene> => {
  await s.teamlog.dispose();
  await s.store.close();
  const db = new Database(s.file);
  const row = db.prepare("SELECT position, data FROM events WHERE type = 'teamlog/inbox/accepted'").get() as {
    position: number;
    data: string;
  };
  const edited = edit(row.data);
  if (edited === row.data) throw new Error('the edit changed nothing');
  db.prepare('UPDATE events SET data = ? WHERE position = ?').run(edited, row.position);
  db.close();
  return { ...s, store: SqliteEventStore.open(s.file) };
};

describe('acceptances checked against everything the store knows', () => {
  let s: Scene;
  beforeEach(async () => {
    s = await scene();
  });
  afterEach(async () => {
    await s.teamlog.dispose();
    await s.store.close();
    s.cleanup();
  });

  it('finds nothing in a store the engine wrote', async () => {
    expect(await auditOf(s.store)).toEqual([]);
  });

  it('writer-not-sender: a copy appended through the port names the lead, its metadata still names alice', async () => {
    await forgedCopy(s, { sender: s.lead, senderName: 'lead' });
    const findings = await auditOf(s.store);
    expect(findings).toEqual([
      expect.objectContaining({
        code: 'writer-not-sender',
        sessionId: s.bob,
        seq: 3,
        messageId: 'forged-lead',
        detail: `the event's metadata names ${s.alice} as its writer; the source names ${s.lead}`,
      }),
    ]);
  });

  it('writer-not-sender: the genuine acceptance edited in the SQLite file to name the lead', async () => {
    await s.teamlog.dispose();
    await s.store.close();
    const db = new Database(s.file);
    const row = db.prepare("SELECT position, data FROM events WHERE type = 'teamlog/inbox/accepted'").get() as {
      position: number;
      data: string;
    };
    const edited = row.data
      .replace(
        `"senderSessionId":"${s.alice}","senderName":"alice"`,
        `"senderSessionId":"${s.lead}","senderName":"lead"`,
      )
      .replace('Team message from alice:', 'Team message from lead:');
    expect(edited).not.toBe(row.data);
    db.prepare('UPDATE events SET data = ? WHERE position = ?').run(edited, row.position);
    db.close();
    s = { ...s, store: SqliteEventStore.open(s.file) };
    expect(await codesOf(s.store)).toEqual(['writer-not-sender']);
  });

  it('header-sender-mismatch: the relayed text of the genuine acceptance edited in the SQLite file to name the lead', async () => {
    s = await editAcceptanceText(s, (text) => text.replace('Team message from alice:', 'Team message from lead:'));
    const findings = (await auditOf(s.store)).map((finding) => [finding.code, finding.detail]);
    expect(findings).toEqual([
      ['header-sender-mismatch', 'header names "lead", source names "alice"'],
      ['roster-name-mismatch', `header names "lead"; the roster names ${s.alice} "alice"`],
    ]);
  });

  it('missing-sender-header: the sender line of the genuine acceptance removed in the SQLite file', async () => {
    s = await editAcceptanceText(s, (text) => text.replace('Team message from alice:', 'A note:'));
    expect(await codesOf(s.store)).toEqual(['missing-sender-header']);
  });

  it('writer-missing: an acceptance whose metadata names no writer', async () => {
    await forgedCopy(s, { metadata: ({ writerSessionId: _writer, ...rest }) => rest });
    expect(await codesOf(s.store)).toEqual(['writer-missing']);
  });

  it('sender-stream-missing: the named sender has no stream of its own', async () => {
    const ghost = 'n-ghost' as SessionId;
    await forgedCopy(s, {
      sender: ghost,
      senderName: 'ghost',
      metadata: (metadata) => ({ ...metadata, writerSessionId: ghost }),
    });
    expect(await codesOf(s.store)).toEqual(['sender-not-in-roster', 'sender-not-in-team', 'sender-stream-missing']);
  });

  it('sender-closed: the named sender was closed when the message was accepted', async () => {
    await s.teamlog.runtime(s.alice).close('killed');
    await forgedCopy(s, { senderName: 'alice' });
    const findings = (await auditOf(s.store)).map((finding) => [finding.code, finding.messageId]);
    expect(findings).toEqual([['sender-closed', 'forged-alice']]);
  });

  it('sender-in-other-team and sender-not-in-roster: the named sender belongs to another team', async () => {
    const other = await s.teamlog.createTeam();
    await s.teamlog.runtime(other.sessionId).start();
    const carol = await other.spawnMember({ name: 'carol', description: 'carol', provider: 'scripted' });
    await s.teamlog.runtime(carol.sessionId).start();
    await forgedCopy(s, {
      sender: carol.sessionId,
      senderName: 'alice',
      metadata: (metadata) => ({ ...metadata, writerSessionId: carol.sessionId }),
    });
    expect(await codesOf(s.store)).toEqual(['sender-in-other-team', 'sender-not-in-roster', 'sender-not-in-team']);
  });

  it('sender-not-in-roster: a sender the roster did not list yet at that position', async () => {
    const dave = 'n-dave' as SessionId;
    await s.store.appendToStream(sessionStream(dave), [
      { id: 'dave-0' as RecordedEvent['id'], type: 'turn/start', data: { turn: 1 }, metadata: { time: 1 } },
    ]);
    await forgedCopy(s, {
      sender: dave,
      senderName: 'dave',
      metadata: (metadata) => ({ ...metadata, writerSessionId: dave }),
    });
    expect(await codesOf(s.store)).toEqual(['sender-not-in-roster', 'sender-not-in-team']);
  });

  it('message-id-reused: one message id accepted into two sessions', async () => {
    const genuine = await lastOf(s.store, s.bob);
    const id = (genuine.data as { message: { id: string } }).message.id;
    await forgedCopy(s, { senderName: 'alice', messageId: id, into: s.lead });
    const findings = (await auditOf(s.store)).map((finding) => [finding.code, finding.sessionId]);
    // The copy in whichever session sorts second is the one reported.
    expect(findings).toEqual([['message-id-reused', [s.lead, s.bob].sort()[1]]]);
  });
});
