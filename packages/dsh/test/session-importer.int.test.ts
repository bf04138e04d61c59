import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { type EventStore, type RecordedEvent, sessionHeaderStream, sessionStream } from '@teamlog/store';
import type { StagedAppends } from '@teamlog/store';
import { type SessionId, scopeId } from '@teamlog/events';
import { craftedRoot } from './crafted-fixtures';
import { type TempStore, openTempStore, realLogsRoot } from './real-logs';
import { importSessionLog, importSessionLogs, readSessionLog, sessionEventId } from '../src';

const crafted = (name: string): string => join(craftedRoot, name);
const packedChunks = join(
  realLogsRoot,
  'mirror-toninfo/examples/acp-agent/tests/snapshots/packed-chunks/session.jsonl',
);

let temp: TempStore;
beforeEach(async () => {
  temp = await openTempStore();
});
afterEach(async () => {
  await temp.dispose();
});

const readAll = async (stream: ReturnType<typeof sessionStream>): Promise<RecordedEvent[]> => {
  const events: RecordedEvent[] = [];
  if ((await temp.store.streamRevision(stream)) === undefined) return events;
  for await (const event of temp.store.readStream(stream)) events.push(event);
  return events;
};

const copyLines = async (source: string, target: string, lineCount?: number): Promise<void> => {
  const lines = (await fs.readFile(source, 'utf8')).split('\n');
  await fs.writeFile(target, lineCount === undefined ? lines.join('\n') : `${lines.slice(0, lineCount).join('\n')}\n`);
};

describe('importing a session log into the SQLite store', () => {
  it('stores one stream per session with revision = seq, data verbatim and the envelope in metadata', async () => {
    const result = await importSessionLog(crafted('packed-seeded-v1/session.v1.jsonl'), temp.store);
    expect(result).toMatchObject({
      sessionId: 'crafted-packed-seeded-v1',
      formatVersion: 1,
      events: 14,
      appended: 14,
      alreadyStored: 0,
      recovery: null,
      inheritedCount: 2,
      normalised: false,
    });
    const stored = await readAll(sessionStream('crafted-packed-seeded-v1' as SessionId));
    expect(stored.map((event) => Number(event.revision))).toEqual([...Array(14).keys()]);
    expect(stored[0]?.id).toBe(sessionEventId('crafted-packed-seeded-v1', 0));
    expect(stored[3]).toMatchObject({
      type: 'assistant/chunk',
      data: { turn: 1, step: 1, chunk: { type: 'text-delta', index: 0, text: 'a' } },
      metadata: { time: 1785000000200, packed: 'text-chunks' },
    });
    expect(stored[11]?.metadata).toEqual({
      time: 1785000000111,
      surfaceOp: 'append',
      sourceEventSeqs: [3, 4, 5, 6, 8, 9],
    });
    const [header] = await readAll(sessionHeaderStream('crafted-packed-seeded-v1' as SessionId));
    expect(header).toMatchObject({
      type: 'teamlog/session/header',
      data: { formatVersion: 1, header: { seedLength: 2, version: 1 } },
    });
  });

  it('keeps unknown types and unknown envelope keys, and flags the types that are not ignorable', async () => {
    const result = await importSessionLog(crafted('unknown-types/session.v4.jsonl'), temp.store);
    expect(result.unknownTypes).toEqual(['plugin:acme/telemetry']);
    const stored = await readAll(sessionStream('crafted-unknown-types' as SessionId));
    expect(stored.map((event) => event.type)).toEqual([
      'turn/start',
      'plugin:acme/telemetry',
      'acme/ignorable-note',
      'turn/end',
    ]);
    expect(stored[2]?.metadata).toMatchObject({ ignorable: true });
    expect(stored[3]?.metadata).toMatchObject({ extra: { writer: 'acme' } });
  });

  it('is idempotent: importing the same file again appends nothing', async () => {
    const first = await importSessionLog(packedChunks, temp.store);
    const second = await importSessionLog(packedChunks, temp.store);
    expect(first.appended).toBe(first.events);
    expect(second).toMatchObject({ appended: 0, alreadyStored: first.events, events: first.events });
    expect(second.rejected).toBeUndefined();
    expect(await readAll(sessionStream(first.streamSessionId as SessionId))).toHaveLength(first.events);
  });

  it('imports a log that has grown since by appending only its new tail', async () => {
    const file = join(temp.directory, 'session.jsonl');
    await copyLines(packedChunks, file, 12);
    const early = await importSessionLog(file, temp.store);
    await copyLines(packedChunks, file);
    const grown = await importSessionLog(file, temp.store);
    expect(early.events).toBeGreaterThan(0);
    expect(grown).toMatchObject({ alreadyStored: early.events, appended: grown.events - early.events });
    const { events } = await readSessionLog(packedChunks);
    const stored = await readAll(sessionStream(grown.streamSessionId as SessionId));
    expect(stored.map((event) => event.type)).toEqual(events.map((event) => event.event.type));
  });

  it('refuses a log whose already-imported prefix differs, and writes nothing', async () => {
    const file = join(temp.directory, 'session.jsonl');
    await copyLines(packedChunks, file, 12);
    const early = await importSessionLog(file, temp.store);
    const text = (await fs.readFile(packedChunks, 'utf8')).replace(
      '"turn":1,"step":1,"index":0',
      '"turn":1,"step":1,"index":7',
    );
    await fs.writeFile(file, text);
    const refused = await importSessionLog(file, temp.store);
    expect(refused.rejected).toMatchObject({ reason: 'prefix-mismatch' });
    expect(refused.rejected?.message).toMatch(
      /session\.jsonl:line \d+: the store already holds a assistant\/chunk event at seq \d+/,
    );
    expect(await readAll(sessionStream(early.streamSessionId as SessionId))).toHaveLength(early.events);
  });

  it('writes nothing for a file rejected as a whole, and the rest of a root still imports', async () => {
    const progress: string[] = [];
    const report = await importSessionLogs(craftedRoot, temp.store, { onFile: (result) => progress.push(result.file) });
    expect(progress).toEqual(report.files.map((file) => file.file));
    const byName = new Map(report.files.map((file) => [file.file.slice(craftedRoot.length + 1), file]));
    expect(byName.get('gap-then-turn-end/session.jsonl')?.rejected?.reason).toBe('damaged-history');
    expect(byName.get('newer-version/session.v5.jsonl')?.rejected?.reason).toBe('newer-format-version');
    expect(byName.get('not-a-session/notifications.jsonl')?.rejected?.reason).toBe('not-a-session-log');
    expect(byName.get('invalid-event/session.v3.jsonl')?.rejected).toMatchObject({ reason: 'invalid-event', line: 3 });
    expect(byName.get('invalid-team-record/session.v3.jsonl')).toMatchObject({
      appended: 1,
      invalidTeamRecords: [{ line: 2, seq: 0, type: 'team/member' }],
    });
    expect(byName.get('invalid-team-record/session.v3.jsonl')?.rejected).toBeUndefined();
    expect(byName.get('zstd-corrupt-checksum/session.jsonl.zstd')?.rejected?.reason).toBe('corrupt-frame');
    expect(byName.get('torn-tail/session.jsonl')).toMatchObject({
      events: 5,
      appended: 5,
      recovery: { reason: 'torn-tail' },
    });
    expect(byName.get('zstd-cli/session.v4.jsonl.zstd')).toMatchObject({ events: 3, appended: 3 });
    const streams = temp.store.listStreams().map((stream) => stream.streamName);
    for (const rejected of [
      'crafted-gap-then-turn-end',
      'crafted-newer-version',
      'crafted-invalid-event',
      'crafted-zstd-corrupt',
      'crafted-unparsable-then-turn-end',
    ]) {
      expect(streams.filter((name) => name.includes(rejected))).toEqual([]);
    }
    expect(report).toMatchObject({ notSessionLogs: 1, rejected: 5 });
    expect(report.imported).toBe(report.files.length - 6);
  });

  it('appends a large file in chunks; a crash after some chunks leaves a valid prefix that the next import completes', async () => {
    const full = await importSessionLog(packedChunks, temp.store, { batchEvents: 10 });
    expect(full.appended).toBe(full.events);
    const other = await openTempStore();
    try {
      // A crash mid-import: the first chunks are stored, the rest is not.
      const { events } = await readSessionLog(packedChunks);
      const { toEventToAppend } = await import('../src/stored-event-codec');
      const header = (await readAll(sessionHeaderStream(full.streamSessionId as SessionId)))[0] as RecordedEvent;
      await other.store.appendToStream(sessionHeaderStream(full.streamSessionId as SessionId), [
        { id: header.id, type: header.type, data: header.data },
      ]);
      await other.store.appendToStream(
        sessionStream(full.streamSessionId as SessionId),
        events.slice(0, 30).map((event) => toEventToAppend(full.streamSessionId as string, event.event, false)),
      );
      const resumed = await importSessionLog(packedChunks, other.store, { batchEvents: 10 });
      expect(resumed).toMatchObject({ alreadyStored: 30, appended: full.events - 30 });
      const a = await readAll(sessionStream(full.streamSessionId as SessionId));
      const bEvents: RecordedEvent[] = [];
      for await (const event of other.store.readStream(sessionStream(full.streamSessionId as SessionId)))
        bEvents.push(event);
      expect(bEvents.map((event) => [event.id, event.type, event.data, event.metadata])).toEqual(
        a.map((event) => [event.id, event.type, event.data, event.metadata]),
      );
    } finally {
      await other.dispose();
    }
  });

  it('refuses to append events that changed between the validating read and the writing read (two-pass import)', async () => {
    const file = join(temp.directory, 'session.jsonl');
    await copyLines(packedChunks, file);
    // The header is staged between the two passes: edit the file right then.
    const store: EventStore = Object.create(temp.store, {
      stageAppends: {
        value: (): StagedAppends => {
          const unit = temp.store.stageAppends();
          return {
            append: async (...args: Parameters<StagedAppends['append']>) => {
              if (String(args[0]).startsWith('sessionheader-')) {
                await fs.writeFile(file, (await fs.readFile(file, 'utf8')).replace('"text":"', '"text":"changed '));
              }
              return unit.append(...args);
            },
            commit: () => unit.commit(),
            abort: () => unit.abort(),
          };
        },
      },
    });
    const result = await importSessionLog(file, store, { singlePassBytes: 0 });
    expect(result.rejected).toMatchObject({ reason: 'unreadable' });
    expect(result.rejected?.message).toMatch(/the file changed while it was imported/);
    // Whole or nothing: neither the header nor a chunk before the edit was written.
    expect(temp.store.listStreams()).toEqual([]);
  });

  it('imports normalised snapshot fixtures under the scope of their directory, data verbatim', async () => {
    const report = await importSessionLogs(join(realLogsRoot, 'index-1394225561'), temp.store);
    const lead = report.files.find((file) => file.file.endsWith('team-direct-inbox/session.v4.jsonl'));
    const otherLead = report.files.find((file) => file.file.endsWith('team-targets/session.v4.jsonl'));
    expect(lead).toMatchObject({
      normalised: true,
      scope: 'snapshots/session/team-direct-inbox',
      sessionId: '{{session:1}}',
    });
    expect(lead?.streamSessionId).toBe(scopeId('{{session:1}}', 'snapshots/session/team-direct-inbox'));
    expect(otherLead?.streamSessionId).toBe('{{session:1}}@snapshots/session/team-targets');
    expect(report.rejected).toBe(0);
    const [header] = await readAll(sessionHeaderStream(lead?.streamSessionId as SessionId));
    expect(header?.data).toMatchObject({
      normalised: true,
      scope: 'snapshots/session/team-direct-inbox',
      formatVersion: 4,
    });
    const stored = await readAll(sessionStream(lead?.streamSessionId as SessionId));
    const member = stored.find((event) => event.type === 'team/member');
    expect(member?.data).toMatchObject({ teamId: '{{session:1}}' });
    expect(member?.metadata).toMatchObject({ normalised: true, time: 0 });
  });

  it('scopes logs whose header id is the nil UUID by their directory, so unrelated fixtures sharing it both import', async () => {
    const snapshots = join(realLogsRoot, 'mirror-toninfo/examples/acp-agent/tests/snapshots');
    const report = await importSessionLogs(snapshots, temp.store);
    const nil = report.files.filter((file) => file.sessionId === '00000000-0000-0000-0000-000000000000');
    expect(nil.map((file) => file.scope).sort()).toEqual(['handshake', 'reject-extra-dirs', 'session-sandbox-root']);
    // handshake/ and reject-extra-dirs/ hold a header alone; session-sandbox-root/ was refused before the nil UUID was scoped.
    expect(nil.map((file) => [file.scope, file.rejected, file.appended]).sort()).toEqual([
      ['handshake', undefined, 0],
      ['reject-extra-dirs', undefined, 0],
      ['session-sandbox-root', undefined, 27],
    ]);
    expect(nil.map((file) => file.streamSessionId).sort()).toEqual(
      ['handshake', 'reject-extra-dirs', 'session-sandbox-root'].map(
        (scope) => `00000000-0000-0000-0000-000000000000@${scope}`,
      ),
    );
  });

  it('scopes a log whose header id is an unindexed placeholder by its file, so a parent and child in one directory both import', async () => {
    const directory = join(realLogsRoot, 'mirror-toninfo/examples/headless-agent/tests/subagent-inheritance-snapshots');
    const report = await importSessionLogs(directory, temp.store);
    const logs = report.files.filter((file) => file.sessionId === '{{sessionId}}');
    expect(logs.map((file) => file.streamSessionId).sort()).toEqual([
      '{{sessionId}}@parent-override/child.expected.jsonl',
      '{{sessionId}}@parent-override/parent.expected.jsonl',
    ]);
    expect(logs.every((file) => file.rejected === undefined && file.appended > 0)).toBe(true);
  });

  it('keeps one directory scope for logs with indexed placeholder ids, which tell the sessions of a directory apart', async () => {
    const directory = await fs.mkdtemp(join(temp.directory, 'indexed-'));
    await fs.mkdir(join(directory, 'suite'));
    const log = (id: string) =>
      `${JSON.stringify({ type: 'session', version: 4, id, createdAt: 0, cwd: '{{cwd}}', delegationDepth: 0, isSeeded: false })}\n${JSON.stringify({ type: 'turn/start', seq: 0, time: 1, data: { turn: 1 } })}\n`;
    await fs.writeFile(join(directory, 'suite', 'lead.jsonl'), log('{{session:1}}'));
    await fs.writeFile(join(directory, 'suite', 'member.jsonl'), log('{{session:2}}'));
    const report = await importSessionLogs(directory, temp.store);
    expect(report.files.map((file) => file.rejected?.message)).toEqual([]);
    expect(report.files.map((file) => file.streamSessionId).sort()).toEqual([
      '{{session:1}}@suite',
      '{{session:2}}@suite',
    ]);
  });

  it('refuses a different log that claims an already-imported session id', async () => {
    const a = join(realLogsRoot, 'mirror-toninfo/examples/acp-agent/tests/snapshots/read-image/session.jsonl');
    const b = join(
      realLogsRoot,
      'mirror-toninfo/examples/acp-agent/tests/snapshots/read-image-dimension/session.jsonl',
    );
    expect((await importSessionLog(a, temp.store)).rejected).toBeUndefined();
    const refused = await importSessionLog(b, temp.store);
    expect(refused.rejected?.reason).toBe('prefix-mismatch');
  });
});
