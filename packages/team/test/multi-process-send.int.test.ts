import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { type MessageId, uuidV7Ids } from '@teamlog/events';
import type { RecordedEvent } from '@teamlog/store';
import { SqliteEventStore } from '@teamlog/store-sqlite';
import { createTeamLog } from '@teamlog/team';
import { runInlineChild, untilLines } from '../../../test/support/child-process';
import { sendLoopScript, sendThenHangScript } from './child-sender';
import { member, startedTeam, streamOf } from '@teamlog/test-support/team-fixture';
import { tempStoreFile } from './temp-store-file';

const acceptedIds = (events: readonly RecordedEvent[]): MessageId[] =>
  events.flatMap((event) =>
    event.type === 'teamlog/inbox/accepted' ? [(event.data as { message: { id: MessageId } }).message.id] : [],
  );
const conversationIds = (events: readonly RecordedEvent[]): MessageId[] =>
  events.flatMap((event) => (event.type === 'user/message' ? [(event.data as { id: MessageId }).id] : []));

/** A team on a fresh SQLite file: Lead, researcher, implementer, reviewer, all started and idle. */
const teamOnFile = async () => {
  const { file, cleanup } = tempStoreFile();
  const store = SqliteEventStore.open(file);
  const teamlog = createTeamLog({ store, ids: uuidV7Ids });
  const team = await startedTeam(teamlog, 'researcher', 'implementer', 'reviewer');
  await teamlog.dispose();
  await store.close();
  return { file, cleanup, team };
};

const reopen = (file: string) => {
  const store = SqliteEventStore.open(file);
  return { store, teamlog: createTeamLog({ store, ids: uuidV7Ids }) };
};

describe('Team send across real processes on one SQLite file', () => {
  it('given three processes sending to one target at once, then every id is accepted exactly once and each sender keeps its order', async () => {
    const { file, cleanup, team } = await teamOnFile();
    const target = member(team, 'implementer').sessionId;
    const senders = ['lead', 'researcher', 'reviewer'].map((as) => ({
      as,
      child: runInlineChild(sendLoopScript, [file, team.lead.teamId, as, 'implementer', '40']),
    }));
    const codes = await Promise.all(senders.map(({ child }) => child.exited));
    expect({ codes, stderr: senders.map(({ child }) => child.stderr()).join('') }).toEqual({
      codes: [0, 0, 0],
      stderr: '',
    });
    const store = SqliteEventStore.open(file);
    const events = await streamOf(store, target);
    expect(events.map((event) => event.revision)).toEqual(events.map((_, n) => BigInt(n)));
    const accepted = acceptedIds(events);
    const reported = senders.flatMap(({ child }) => child.lines);
    expect(reported).toHaveLength(120);
    expect(new Set(accepted).size).toBe(accepted.length);
    expect([...accepted].sort()).toEqual([...reported].sort());
    for (const { child } of senders) expect(accepted.filter((id) => child.lines.includes(id))).toEqual(child.lines);
    await store.close();
    cleanup();
  }, 120_000);

  it('given a process killed with SIGKILL in the middle of a send loop, then every id it reported is in the target stream exactly once', async () => {
    const { file, cleanup, team } = await teamOnFile();
    const target = member(team, 'reviewer').sessionId;
    const victim = runInlineChild(sendLoopScript, [file, team.lead.teamId, 'researcher', 'reviewer', '100000']);
    const steady = runInlineChild(sendLoopScript, [file, team.lead.teamId, 'lead', 'reviewer', '50']);
    await untilLines(victim, 60);
    victim.child.kill('SIGKILL');
    await victim.exited;
    expect(await steady.exited).toBe(0);
    const store = SqliteEventStore.open(file);
    expect(store.database.pragma('integrity_check', { simple: true })).toBe('ok');
    const accepted = acceptedIds(await streamOf(store, target));
    expect(new Set(accepted).size).toBe(accepted.length);
    for (const id of [...victim.lines, ...steady.lines])
      expect(accepted.filter((candidate) => candidate === id)).toEqual([id]);
    // At most the one send in flight at the kill can be accepted without having been reported.
    expect(accepted.length - victim.lines.length - steady.lines.length).toBeLessThanOrEqual(1);
    await store.close();
    cleanup();
  }, 120_000);

  it('given a process killed between acceptance and claim, then after a restart the message is pending exactly once and is claimed once', async () => {
    const { file, cleanup, team } = await teamOnFile();
    const target = member(team, 'researcher').sessionId;
    const sender = runInlineChild(sendThenHangScript, [file, team.lead.teamId, 'lead', 'researcher']);
    await untilLines(sender, 1);
    sender.child.kill('SIGKILL');
    await sender.exited;
    const [id] = sender.lines as [MessageId];

    const first = reopen(file);
    expect((await first.teamlog.session(target)).pending).toEqual({ 'next-turn': [id], 'next-step': [] });
    expect((await first.teamlog.runtime(target).beginTurn()).claimed.map((message) => message.id)).toEqual([id]);
    await first.teamlog.dispose();
    await first.store.close();

    const second = reopen(file);
    const after = await second.teamlog.session(target);
    expect(after.pending).toEqual({ 'next-turn': [], 'next-step': [] });
    expect(after.inbox.map((entry) => [entry.id, entry.status])).toEqual([[id, 'claimed']]);
    const events = await streamOf(second.store, target);
    expect(acceptedIds(events)).toEqual([id]);
    expect(conversationIds(events)).toEqual([id]);
    await second.teamlog.dispose();
    await second.store.close();
    cleanup();
  }, 60_000);

  it('given the compiled package, when a caller imports an internal module by path, then Node refuses it', () => {
    const attempt = () =>
      execFileSync(process.execPath, ['-e', "require('@teamlog/team/dist/member-steer-adapter')"], {
        cwd: resolve(__dirname, '../../..'),
        stdio: 'pipe',
      });
    expect(attempt).toThrow(/ERR_PACKAGE_PATH_NOT_EXPORTED/);
    const exported = execFileSync(
      process.execPath,
      ['-e', "console.log(Object.keys(require('@teamlog/team')).join(','))"],
      { cwd: resolve(__dirname, '../../..') },
    );
    expect(exported.toString()).toContain('createTeamLog');
    expect(exported.toString()).not.toMatch(/Adapter|Engine/);
  });
});
