import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { once } from 'node:events';
import { runTeamlog, storedEventCount, temporaryDirectory } from './run-teamlog';

/*
 * Human output of any size is a summary: a generated mailbox-era Lead log of 500,000 events
 * (100,000 legacy messages, half of them delivered, and ignorable filler) replays to a page of
 * counts and first rows, with the way to see the rest, instead of a 100,000-row table (or a crash).
 */

const events = 500_000;
const messages = 100_000;
const start = Date.UTC(2026, 6, 20, 9);

/** The lines of the log, in order, as JSON text (written in slabs, never held whole). */
function* bigLeadLog(): Generator<string> {
  yield JSON.stringify({
    type: 'session',
    version: 4,
    id: 'big-lead',
    createdAt: start,
    cwd: '/home/dev/app',
    isSeeded: false,
    delegationDepth: 0,
  });
  let seq = 0;
  const event = (type: string, data: unknown, ignorable = false): string =>
    JSON.stringify({ type, seq: seq, time: start + (seq += 1) * 10, data, ...(ignorable ? { ignorable: true } : {}) });
  const member = (phase: string) => ({
    version: 1,
    teamId: 'big-lead',
    member: {
      id: 'big-member',
      name: 'worker',
      description: 'does the work',
      provider: 'spawn',
      context: 'fresh',
      phase,
    },
  });
  yield event('team/member', member('provisioning'));
  yield event('team/member', member('active'));
  for (let n = 0; seq < events; n += 1) {
    if (n < messages) {
      const id = `team-message-${String(n).padStart(8, '0')}-0000-4000-8000-000000000000`;
      yield event('team/message/queued', {
        version: 1,
        teamId: 'big-lead',
        message: {
          id,
          senderId: 'big-lead',
          senderName: 'lead',
          targetId: 'big-member',
          delivery: 'wakeup',
          content: [{ type: 'text', text: `note ${n}` }],
        },
      });
      if (n % 2 === 0)
        yield event('team/message/delivered', {
          version: 1,
          teamId: 'big-lead',
          messageId: id,
          targetId: 'big-member',
        });
    }
    while (seq < events && seq % 5 !== 0) yield event('x/teamlog-test-filler', { n: seq }, true);
    if (seq < events && n >= messages) yield event('x/teamlog-test-filler', { n: seq }, true);
  }
}

const writeLog = async (file: string): Promise<void> => {
  const out = createWriteStream(file);
  let slab: string[] = [];
  for (const line of bigLeadLog()) {
    slab.push(line);
    if (slab.length === 10_000) {
      if (!out.write(`${slab.join('\n')}\n`)) await once(out, 'drain');
      slab = [];
    }
  }
  out.end(slab.length === 0 ? '' : `${slab.join('\n')}\n`);
  await once(out, 'finish');
};

describe('human output of a big history', () => {
  it('replays a 500,000-event Lead log to a summary: counts, the first rows, and how to see the rest', async () => {
    const temp = temporaryDirectory();
    try {
      const log = join(temp.path, 'big-lead', 'session.v4.jsonl');
      await import('node:fs').then((fs) => fs.promises.mkdir(join(temp.path, 'big-lead')));
      await writeLog(log);
      const store = join(temp.path, 'store.db');
      const replay = runTeamlog(['replay', log, '--store', store]);
      expect(replay.stderr).toBe('');
      expect(replay.code).toBe(0);
      expect(storedEventCount(store)).toBe(events + 1);
      const lines = replay.stdout.split('\n');
      expect(lines.length).toBeLessThan(300);
      expect(replay.stdout).toContain(
        `Legacy mailbox (read-only, never delivered again): ${messages} messages, ${messages / 2} undelivered`,
      );
      expect(replay.stdout).toContain(
        `… ${messages - 50} more rows (teamlog legacy --team big-lead --json lists them all)`,
      );
      expect(replay.stdout).toMatch(/Sessions: 1 file read, 1 imported \(500000 events appended\)/);

      const legacy = runTeamlog(['legacy', '--team', 'big-lead', '--store', store]);
      expect(legacy.code).toBe(0);
      expect(legacy.stdout.split('\n').length).toBeLessThan(100);
      const json = runTeamlog(['legacy', '--team', 'big-lead', '--store', store, '--json']);
      expect(
        (JSON.parse(json.stdout) as { teams: Array<{ legacyMessages: unknown[] }> }).teams[0]?.legacyMessages,
      ).toHaveLength(messages);
    } finally {
      temp.cleanup();
    }
  }, 600_000);
});
