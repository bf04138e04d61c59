import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { uuidV7Ids } from '@teamlog/events';
import { sessionLogFileName } from '@teamlog/dsh';
import { generateSyntheticLog } from '@teamlog/test-support/synthetic-log';
import {
  type ThrowawayCluster,
  createTestDatabase,
  freeLoopbackPort,
  startThrowawayCluster,
} from '@teamlog/postgres-testing';
import type { RecordedEvent } from '@teamlog/store';
import { openPostgresStore } from '@teamlog/store-postgres';
import { createTeamLog } from '@teamlog/team';
import { cliMain, runTeamlog, storedEventCount, temporaryDirectory } from './run-teamlog';
import { type Running, runTeamlogAsync, startTeamlog } from './teamlog-process';
import { member, startedTeam, streamOf } from '@teamlog/test-support/team-fixture';
import { type RunningChild, runChild } from '../../../test/support/child-process';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

/*
 * The PostgreSQL server crashes (`pg_ctl stop -m immediate`) under an import, a follow and a send
 * burst, on a cluster of this file's own (the shared one is never stopped): the commands retry
 * with back-off (docs/user-guide.md, exit codes), carry on when the server is back, and end with
 * exit 4 and one line when it stays away; a rerun resumes without duplicates.
 */

/** Waits until `condition` holds, checking every 25 ms; fails with `what` after a generous limit. */
const until = async (what: string, condition: () => boolean | Promise<boolean>, limitMs = 120_000): Promise<void> => {
  const deadline = Date.now() + limitMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 25));
  }
};

/** Read straight from the database, not through the code under test; 0 while the server is down or the schema not made yet. */
const countRows = async (url: string, sql: string, parameters: readonly unknown[] = []): Promise<number> => {
  const client = new Client({ connectionString: url });
  client.on('error', () => undefined);
  try {
    await client.connect();
    const { rows } = await client.query<{ count: string }>(sql, [...parameters]);
    return Number(rows[0]?.count ?? 0);
  } catch {
    return 0;
  } finally {
    await client.end().catch(() => undefined);
  }
};
const eventCount = (url: string): Promise<number> => countRows(url, 'SELECT count(*) AS count FROM teamlog.events');
const distinctIds = (url: string): Promise<number> =>
  countRows(url, 'SELECT count(DISTINCT event_id) AS count FROM teamlog.events');

/** `sessions` generated session logs, each in a directory of its own under `root`. */
const writeSessions = async (root: string, sessions: number, bytesEach: number, first = 0): Promise<void> => {
  for (let n = first; n < first + sessions; n += 1) {
    const directory = join(root, `session-${n}`);
    mkdirSync(directory, { recursive: true });
    const sessionId = `lost-server-${String(n).padStart(4, '0')}-4000-8000-000000000000`;
    await generateSyntheticLog({
      file: join(directory, sessionLogFileName(4, 'none')),
      targetBytes: bytesEach,
      formatVersion: 4,
      sessionId,
    });
  }
};

const teamlogLines = (stderr: string): string[] => stderr.split('\n').filter((line) => line.startsWith('teamlog: '));
const noStackTrace = (stderr: string): void => expect(stderr).not.toMatch(/\n\s+at .+:\d+:\d+\)?\n/);

describe('a PostgreSQL server that crashes under teamlog', () => {
  let cluster: ThrowawayCluster;
  const corpus = temporaryDirectory();
  const sessions = 40;

  beforeAll(async () => {
    cluster = await startThrowawayCluster();
    await writeSessions(corpus.path, sessions, 256 * 1024);
  }, 180_000);
  afterAll(async () => {
    await cluster?.stop();
    corpus.cleanup();
  });

  it('an unreachable port is retried as documented, then exit 4 with one line', async () => {
    const url = `postgres://teamlog@127.0.0.1:${await freeLoopbackPort()}/teamlog`;
    const run = await runTeamlogAsync(['replay', corpus.path, '--store', url]);
    expect(run.code).toBe(4);
    // The first retry is shown once; then the one line of the failure, without a stack trace.
    expect(run.stderr).toMatch(
      /cannot connect to postgres:\/\/teamlog@127\.0\.0\.1:\d+\/teamlog \(.*ECONNREFUSED.*\); retry 1 in \d+ ms/,
    );
    const lines = teamlogLines(run.stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^teamlog: cannot open postgres:\/\/teamlog@127\.0\.0\.1:\d+\/teamlog: .*ECONNREFUSED/);
    noStackTrace(run.stderr);
  }, 180_000);

  it('replay: a crash mid-import is retried and the import completes, equal to SQLite; a server that stays away ends it with exit 4 and one line; a rerun resumes', async () => {
    const { url } = await createTestDatabase(cluster.url, 'lost_import');
    const sqlite = temporaryDirectory();
    try {
      const reference = runTeamlog(['replay', corpus.path, '--store', join(sqlite.path, 'reference.db')]);
      expect(reference.code).toBe(0);
      const expected = storedEventCount(join(sqlite.path, 'reference.db'));

      // The server crashes under the import and comes back: the import carries on.
      const survived = startTeamlog(['replay', corpus.path, '--store', url]);
      await until('the first events committed', async () => (await eventCount(url)) > 0);
      await cluster.halt();
      await until('the import retrying', () => /retry 1 in/.test(survived.stderr()) || hasExited(survived));
      await cluster.start();
      const first = await survived.exited;
      expect({
        code: first.code,
        retried: /retry 1 in/.test(first.stderr),
        errors: teamlogLines(first.stderr),
      }).toEqual({ code: 0, retried: true, errors: [] });
      noStackTrace(first.stderr);
      expect(await eventCount(url)).toBe(expected);
      expect(await distinctIds(url)).toBe(expected);

      // Again into a fresh database, and the server stays away: exit 4, one line; the rerun imports the rest, once.
      const { url: second } = await createTestDatabase(cluster.url, 'lost_import_away');
      const abandoned = startTeamlog(['replay', corpus.path, '--store', second]);
      await until('the first events committed', async () => (await eventCount(second)) > 0);
      await cluster.halt();
      const gaveUp = await abandoned.exited;
      await cluster.start();
      expect(gaveUp.code).toBe(4);
      const lines = teamlogLines(gaveUp.stderr);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        /^teamlog: .* on postgres:\/\/postgres@127\.0\.0\.1:\d+\/teamlog_lost_import_away_\w+ failed: /,
      );
      noStackTrace(gaveUp.stderr);
      const partial = await eventCount(second);
      expect(partial).toBeLessThan(expected);
      const rerun = runTeamlog(['replay', corpus.path, '--store', second]);
      expect(rerun.code).toBe(0);
      expect(await eventCount(second)).toBe(expected);
      expect(await distinctIds(second)).toBe(expected);
    } finally {
      sqlite.cleanup();
    }
  }, 600_000);

  it('watch: a crash while following is retried, the follower carries on and imports a log written meanwhile', async () => {
    const { url } = await createTestDatabase(cluster.url, 'lost_watch');
    const root = temporaryDirectory();
    try {
      await writeSessions(root.path, 1, 16 * 1024);
      const watch = startTeamlog(['watch', root.path, '--store', url, '--json']);
      await watch.line((line) => line.startsWith('{"batch":0'));
      const before = await eventCount(url);
      await cluster.halt();
      await writeSessions(root.path, 1, 16 * 1024, 1);
      await until('the follower retrying', () => /retry 1 in/.test(watch.stderr()) || hasExited(watch));
      await cluster.start();
      await watch.line((line) => line.includes('lost-server-0001'));
      expect(await eventCount(url)).toBeGreaterThan(before);
      watch.child.kill('SIGTERM');
      const stopped = await watch.exited;
      expect(stopped.code).toBe(0);
      noStackTrace(stopped.stderr);
    } finally {
      root.cleanup();
    }
  }, 300_000);

  it('watch: a server that stays away ends the follow with exit 4 and one line; a rerun imports what was written meanwhile', async () => {
    const { url } = await createTestDatabase(cluster.url, 'lost_watch_away');
    const root = temporaryDirectory();
    try {
      await writeSessions(root.path, 1, 16 * 1024);
      const watch = startTeamlog(['watch', root.path, '--store', url, '--json']);
      await watch.line((line) => line.startsWith('{"batch":0'));
      await cluster.halt();
      await writeSessions(root.path, 1, 16 * 1024, 1);
      const gaveUp = await watch.exited;
      await cluster.start();
      expect(gaveUp.code).toBe(4);
      const lines = teamlogLines(gaveUp.stderr).filter((line) => !line.startsWith('teamlog: following '));
      expect(lines).toEqual([
        expect.stringMatching(
          /^teamlog: .* on postgres:\/\/postgres@127\.0\.0\.1:\d+\/teamlog_lost_watch_away_\w+ failed: /,
        ),
      ]);
      noStackTrace(gaveUp.stderr);
      const rerun = runTeamlog(['replay', root.path, '--store', url]);
      expect(rerun.code).toBe(0);
      expect(
        await countRows(
          url,
          "SELECT count(*) AS count FROM teamlog.events WHERE stream_name LIKE 'session-lost-server-0001%'",
        ),
      ).toBeGreaterThan(0);
    } finally {
      root.cleanup();
    }
  }, 300_000);

  it('a send burst: every send returned an id stored once, or threw; nothing accepted is lost', async () => {
    const { url } = await createTestDatabase(cluster.url, 'lost_sends');
    const team = await teamOn(url, 's1', 't1', 't2');
    const senders = ['lead', 's1'].map((as) => sender(url, team.lead.teamId, as, ['t1', 't2'], 300));
    await until('the first sends', () => senders.every((child) => child.lines.length >= 30));
    await cluster.halt();
    await until('the senders retrying', () =>
      senders.every((child) => child.lines.some((line) => line.startsWith('log ') && /retry|reconnect/.test(line))),
    );
    await cluster.start();
    const codes = await Promise.all(senders.map((child) => child.exited));
    expect({ codes, stderr: senders.map((child) => child.stderr()).join('') }).toEqual({ codes: [0, 0], stderr: '' });
    const reported = senders.flatMap((child) =>
      child.lines.flatMap((line) => (line.startsWith('ok ') ? [line.slice(3)] : [])),
    );
    const failed = senders.flatMap((child) => child.lines.filter((line) => line.startsWith('failed ')));
    expect(reported.length + failed.length).toBe(600);
    const reader = await openPostgresStore(url);
    try {
      const accepted = [
        ...(await streamOf(reader, member(team, 't1').sessionId)),
        ...(await streamOf(reader, member(team, 't2').sessionId)),
      ].flatMap(acceptedId);
      expect(new Set(accepted).size).toBe(accepted.length);
      const stored = new Set(accepted);
      expect(reported.filter((id) => !stored.has(id))).toEqual([]);
      expect(accepted.length - reported.length).toBeLessThanOrEqual(failed.length);
    } finally {
      await reader.close();
    }
  }, 300_000);

  it('serve: a request made while the server is down is answered once it is back, and serve keeps serving', async () => {
    const { url } = await createTestDatabase(cluster.url, 'lost_serve');
    const root = temporaryDirectory();
    try {
      await writeSessions(root.path, 1, 16 * 1024);
      expect(runTeamlog(['replay', root.path, '--store', url]).code).toBe(0);
      const serve = startTeamlog(['serve', '--store', url, '--port', '0']);
      const base = await serve.line();
      expect((await fetch(`${base}api/teams`)).status).toBe(200);
      await cluster.halt();
      const during = fetch(`${base}api/teams`);
      await until('serve retrying', () => /retry 1 in|reconnecting in/.test(serve.stderr()) || hasExited(serve));
      await cluster.start();
      expect((await during).status).toBe(200);
      expect((await fetch(`${base}api/teams`)).status).toBe(200);
      serve.child.kill('SIGINT');
      const stopped = await serve.exited;
      expect(stopped.code).toBe(0);
      noStackTrace(stopped.stderr);
    } finally {
      root.cleanup();
    }
  }, 300_000);

  it('mcp: a tool call made while the server is down is answered once it is back', async () => {
    const { url } = await createTestDatabase(cluster.url, 'lost_mcp');
    const team = await teamOn(url, 'helper');
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [cliMain, 'mcp', '--session', team.lead.sessionId, '--store', url],
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => void (stderr += chunk.toString('utf8')));
    const client = new McpClient({ name: 'agent-runtime', version: '1.0.0' });
    await client.connect(transport);
    try {
      const before = await client.callTool({
        name: 'send_message',
        arguments: { target: 'helper', message: 'before the crash' },
      });
      expect(before.isError).not.toBe(true);
      await cluster.halt();
      const during = client.callTool(
        { name: 'send_message', arguments: { target: 'helper', message: 'during the crash' } },
        undefined,
        { timeout: 240_000 },
      );
      await until('mcp retrying', () => /retry 1 in/.test(stderr));
      await cluster.start();
      const answered = await during;
      expect({
        isError: answered.isError,
        stored: typeof (answered.structuredContent as { messageId?: unknown } | undefined)?.messageId,
      }).toEqual({ isError: undefined, stored: 'string' });
      noStackTrace(stderr);
    } finally {
      await client.close();
    }
  }, 300_000);
});

/** A team on the database: the Lead and these members, started. */
const teamOn = async (url: string, ...names: string[]) => {
  const store = await openPostgresStore(url);
  try {
    const teamlog = createTeamLog({ store, ids: uuidV7Ids });
    const team = await startedTeam(teamlog, ...names);
    await teamlog.dispose();
    return team;
  } finally {
    await store.close();
  }
};

const hasExited = (running: Running): boolean => running.child.exitCode !== null;

const sender = (url: string, teamId: string, as: string, targets: readonly string[], count: number): RunningChild =>
  runChild(resolve(__dirname, '..', '..', '..', 'test', 'team', 'postgres-sender-child.js'), [
    url,
    teamId,
    as,
    targets.join(','),
    String(count),
  ]);

const acceptedId = (event: RecordedEvent): string[] =>
  event.type === 'teamlog/inbox/accepted' ? [(event.data as { message: { id: string } }).message.id] : [];
