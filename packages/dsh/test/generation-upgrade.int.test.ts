import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { SessionId } from '@teamlog/events';
import { sessionHeaderStream, sessionStream } from '@teamlog/store';
import { exportSession, importSessionLog, readSessionLog } from '../src';
import { fixturesRoot, linesOf, readStream } from './follow-support';
import { type TempStore, openTempStore } from './real-logs';

const v0Lead = join(fixturesRoot, 'synthetic/v0-mailbox/v0-lead/session.jsonl');
const lead = 'v0-lead' as SessionId;

let temp: TempStore;
beforeEach(async () => {
  temp = await openTempStore();
});
afterEach(async () => {
  await temp.dispose();
});

/** The V0 -> V1 migration: the header's version renamed, every event and seq kept. */
const migrateToV1 = (lines: readonly string[]): string =>
  `${JSON.stringify({ ...(JSON.parse(lines[0] as string) as object), version: 1 })}\n${lines.slice(1).join('')}`;

describe('importing a later generation of a log the store already holds', () => {
  it('given events that line up with the stored ones, then adds the new header and only the tail', async () => {
    const lines = linesOf(v0Lead);
    const directory = join(temp.directory, 'v0-lead');
    await fs.mkdir(directory);
    await fs.writeFile(join(directory, 'session.jsonl'), lines.slice(0, 10).join(''));
    expect(await importSessionLog(join(directory, 'session.jsonl'), temp.store)).toMatchObject({
      appended: 9,
      formatVersion: 0,
    });
    await fs.writeFile(join(directory, 'session.v1.jsonl'), migrateToV1(lines));
    const upgraded = await importSessionLog(join(directory, 'session.v1.jsonl'), temp.store);
    expect(upgraded).toMatchObject({ formatVersion: 1, alreadyStored: 9, appended: lines.length - 10 });
    expect(upgraded.rejected).toBeUndefined();
    const headers = await readStream(temp.store, sessionHeaderStream(lead));
    expect(headers.map((event) => (event.data as { formatVersion: number }).formatVersion)).toEqual([0, 1]);
    expect(new Set(headers.map((event) => event.id)).size).toBe(2);
    // Idempotent as ever: the same file again adds nothing, not even a header.
    expect(await importSessionLog(join(directory, 'session.v1.jsonl'), temp.store)).toMatchObject({ appended: 0 });
    expect(await readStream(temp.store, sessionHeaderStream(lead))).toHaveLength(2);
    // The stored session is the V1 log: exported, it reads back as the file.
    const exported = join(temp.directory, 'exported.v1.jsonl');
    expect(await exportSession(temp.store, lead, { file: exported })).toMatchObject({ formatVersion: 1 });
    const [back, original] = await Promise.all([
      readSessionLog(exported),
      readSessionLog(join(directory, 'session.v1.jsonl')),
    ]);
    expect(back.head.rawHeader).toEqual(original.head.rawHeader);
    expect(back.events.map(({ event }) => event)).toEqual(original.events.map(({ event }) => event));
  });

  it('given renumbered events, then refuses it and writes nothing, not even its header', async () => {
    const lines = linesOf(v0Lead);
    const directory = join(temp.directory, 'v0-lead');
    await fs.mkdir(directory);
    await fs.writeFile(join(directory, 'session.jsonl'), lines.join(''));
    await importSessionLog(join(directory, 'session.jsonl'), temp.store);
    const before = await readStream(temp.store, sessionStream(lead));
    const shifted = migrateToV1([
      lines[0] as string,
      ...lines.slice(2).map((line) => line.replace(/"seq":(\d+)/, (_all, seq: string) => `"seq":${Number(seq) - 1}`)),
    ]);
    await fs.writeFile(join(directory, 'session.v1.jsonl'), shifted);
    const refused = await importSessionLog(join(directory, 'session.v1.jsonl'), temp.store);
    expect(refused.rejected).toMatchObject({ reason: 'prefix-mismatch', line: 2 });
    expect(await readStream(temp.store, sessionHeaderStream(lead))).toHaveLength(1);
    expect(await readStream(temp.store, sessionStream(lead))).toEqual(before);
  });

  it('given an earlier generation than the stored one, then refuses it', async () => {
    const lines = linesOf(v0Lead);
    const directory = join(temp.directory, 'v0-lead');
    await fs.mkdir(directory);
    await fs.writeFile(join(directory, 'session.v1.jsonl'), migrateToV1(lines));
    await fs.writeFile(join(directory, 'session.jsonl'), lines.join(''));
    await importSessionLog(join(directory, 'session.v1.jsonl'), temp.store);
    const refused = await importSessionLog(join(directory, 'session.jsonl'), temp.store);
    expect(refused.rejected).toMatchObject({ reason: 'prefix-mismatch', line: 1 });
    expect(refused.rejected?.message).toMatch(/already holds this session with a V1 header/);
  });
});
