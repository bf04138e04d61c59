import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { SessionId } from '@teamlog/events';
import { createTestDatabase, type TestDatabase } from '@teamlog/postgres-testing';
import { openPostgresStore } from '@teamlog/store-postgres';
import { createTeamLog } from '@teamlog/team';
import { testPostgresUrl } from '../../../test/support/postgres-server';
import { cliMain, repoRoot, runTeamlog, storedEventCount, temporaryDirectory, type TeamlogRun } from './run-teamlog';
import { firstLine } from './first-line';

/* Every command on `--store postgres://...` (the real server of the test run), against the same commands on a SQLite file. */

const password = 's3cret-Pw-9';

/** The database's URL with a password in it (the test server trusts loopback, so any password connects): it must never be printed. */
const withPassword = (url: string): string => {
  const parsed = new URL(url);
  parsed.password = password;
  return parsed.toString();
};

/** The URL as teamlog prints it. */
const shown = (url: string): string => url.replace(`:${password}@`, ':***@');

const runs: TeamlogRun[] = [];
const teamlog = (args: readonly string[], env?: Readonly<Record<string, string>>): TeamlogRun => {
  const run = runTeamlog(args, env === undefined ? {} : { env });
  runs.push(run);
  return run;
};

const json = (run: TeamlogRun): Record<string, unknown> => {
  if (run.code !== 0) throw new Error(`teamlog exited ${run.code}: ${run.stderr}`);
  return JSON.parse(run.stdout) as Record<string, unknown>;
};

/** A replay document without what names the store. */
const withoutStore = ({ store: _store, position: _position, ...rest }: Record<string, unknown>) => rest;

describe('teamlog on a PostgreSQL store', () => {
  const directory = temporaryDirectory();
  const databases: TestDatabase[] = [];
  const database = async (label: string): Promise<string> => {
    const created = await createTestDatabase(testPostgresUrl(), `cli_${label}`);
    databases.push(created);
    return withPassword(created.url);
  };
  afterAll(async () => {
    directory.cleanup();
    await Promise.all(databases.map((created) => created.drop()));
    // Whatever ran, no command printed the password.
    expect(runs.filter((run) => `${run.stdout}${run.stderr}`.includes(password))).toEqual([]);
  });

  it('replay, then every view command, print what they print on a SQLite file; a second replay appends nothing', async () => {
    const url = await database('replay');
    const file = join(directory.path, 'replay.db');
    const onPostgres = json(teamlog(['replay', 'fixtures/synthetic', '--store', url, '--json']));
    const onSqlite = json(teamlog(['replay', 'fixtures/synthetic', '--store', file, '--json']));
    expect(onPostgres.store).toBe(shown(url));
    expect(onPostgres.position).toMatch(/^\d+\/\d+$/);
    expect(withoutStore(onPostgres)).toEqual(withoutStore(onSqlite));
    expect(
      (json(teamlog(['replay', 'fixtures/synthetic', '--store', url, '--json'])).totals as { appended: number })
        .appended,
    ).toBe(0);

    for (const command of [
      ['roster'],
      ['tasks'],
      ['legacy'],
      ['audit'],
      ['inbox', 'v0-reviewer'],
      ['roster', '--as-of', '2026-07-20T09:00:00.5Z'],
    ]) {
      expect(json(teamlog([...command, '--store', url, '--json']))).toEqual(
        json(teamlog([...command, '--store', file, '--json'])),
      );
    }
    // TEAMLOG_STORE names it as well as --store does.
    expect(json(teamlog(['roster', '--json'], { TEAMLOG_STORE: url }))).toEqual(
      json(teamlog(['roster', '--store', file, '--json'])),
    );
    const text = teamlog(['roster', '--team', 'v0-lead', '--store', url]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('reviewer');
  });

  it('a database without a store is bad input for a reading command (exit 3, nothing created); an unreachable server fails with exit 4; neither prints the password', async () => {
    const url = await database('empty');
    const missing = teamlog(['roster', '--store', url]);
    expect([missing.code, missing.stderr]).toEqual([
      3,
      `teamlog: ${shown(url)}: no teamlog store in this database; run "teamlog replay <path>" or "teamlog import <path>" first, or pass --store\n`,
    ]);
    const store = await openPostgresStore(url, { create: false }).catch((error: unknown) => error);
    expect(store).toMatchObject({ code: 'PostgresStoreNotFound' });
    const down = teamlog(['roster', '--store', `postgres://teamlog:${password}@127.0.0.1:1/teamlog`]);
    expect(down.code).toBe(4);
    // The connection is retried (about half a minute; the first retry is shown once), then one line.
    const lines = down.stderr.trim().split('\n');
    expect(lines[0]).toMatch(
      /^teamlog postgres: cannot connect to postgres:\/\/teamlog:\*\*\*@127\.0\.0\.1:1\/teamlog \(.*ECONNREFUSED.*\); retry 1 in \d+ ms/,
    );
    expect(lines.slice(1)).toEqual([
      expect.stringMatching(
        /^teamlog: cannot open postgres:\/\/teamlog:\*\*\*@127\.0\.0\.1:1\/teamlog: .*ECONNREFUSED/,
      ),
    ]);
    expect(down.stderr).not.toContain(password);
  }, 120_000);

  it('demo runs its team on the server, and the other commands read it there', async () => {
    const url = await database('demo');
    const demo = json(teamlog(['demo', '--store', url, '--json']));
    expect((demo.demo as { rejected: unknown[] }).rejected).toEqual([
      expect.objectContaining({ error: 'TargetClosed' }),
    ]);
    expect(demo.store).toBe(shown(url));
    const roster = json(teamlog(['roster', '--store', url, '--json'])) as {
      teams: Array<{ members: Array<{ name: string }> }>;
    };
    expect(roster.teams.flatMap((team) => team.members.map((member) => member.name)).sort()).toEqual([
      'implementer',
      'researcher',
      'reviewer',
    ]);
  });

  it('migrate copies a SQLite file into PostgreSQL and back, verified, and the views agree', async () => {
    const url = await database('migrate');
    const from = join(directory.path, 'from.db');
    const back = join(directory.path, 'back.db');
    expect(teamlog(['replay', 'fixtures/synthetic/v0-mailbox', '--store', from]).code).toBe(0);
    const there = json(teamlog(['migrate', '--from', from, '--to', url, '--json']));
    expect(there).toMatchObject({ from, to: shown(url), eventsCopied: storedEventCount(from) });
    expect(json(teamlog(['migrate', '--from', from, '--to', url, '--json']))).toMatchObject({
      eventsCopied: 0,
      eventsAlreadyPresent: there.events,
    });
    const home = json(teamlog(['migrate', '--from', url, '--to', back, '--json']));
    expect(home).toMatchObject({ from: shown(url), to: back, eventsCopied: there.events });
    expect(storedEventCount(back)).toBe(storedEventCount(from));
    const roster = (store: string) => json(teamlog(['roster', '--store', store, '--json']));
    expect(roster(url)).toEqual(roster(from));
    expect(roster(back)).toEqual(roster(from));
  });

  it('serve starts from the views replay committed in the database and follows appends of other processes live', async () => {
    const url = await database('serve');
    expect(teamlog(['replay', 'fixtures/synthetic/v0-mailbox', '--store', url]).code).toBe(0);
    const child = spawn(process.execPath, [cliMain, 'serve', '--store', url, '--port', '0'], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    try {
      const page = await firstLine(child);
      const teams = async (): Promise<string[]> =>
        ((await (await fetch(`${page}api/teams`)).json()) as { teams: Array<{ teamId: string }> }).teams.map(
          (team) => team.teamId,
        );
      expect(await teams()).toEqual(['v0-lead']);
      expect(teamlog(['import', 'fixtures/synthetic/v4-direct', '--store', url]).code).toBe(0);
      await until(async () => (await teams()).length === 2);
      expect(await teams()).toEqual(['direct-lead', 'v0-lead']);
    } finally {
      child.kill('SIGINT');
    }
    expect(await exited).toBe(0);
    expect(stderr).toContain(`teamlog: serving ${shown(url)} at http://127.0.0.1:`);
    expect(stderr).toMatch(/views from the store's committed views at \d+\/\d+, 0 newer events folded/);
    expect(stderr).not.toContain(password);
  });

  it('mcp: a Lead and a member behind teamlog mcp processes on the server send to each other with true attribution', async () => {
    const url = await database('mcp');
    const store = await openPostgresStore(url);
    const setup = createTeamLog({ store });
    const lead = await setup.createTeam();
    const member = await lead.spawnMember({ name: 'researcher', description: 'finds the approach' });
    await setup.dispose();
    await store.close();
    const [leadRuntime, memberRuntime] = [await joinTeam(lead.sessionId, url), await joinTeam(member.sessionId, url)];
    try {
      const toMember = await send(leadRuntime, 'researcher', 'Find how the logs are framed.');
      const toLead = await send(memberRuntime, 'lead', 'Frames are zstd.');
      const inbox = async (runtime: Client) =>
        (
          (await runtime.callTool({ name: 'read_inbox', arguments: {} })).structuredContent as {
            messages: Array<{ id: string; from: string }>;
          }
        ).messages;
      expect((await inbox(memberRuntime.client)).map((message) => [message.id, message.from])).toEqual([
        [toMember, 'lead'],
      ]);
      expect((await inbox(leadRuntime.client)).map((message) => [message.id, message.from])).toEqual([
        [toLead, 'researcher'],
      ]);
      expect(memberRuntime.stderr()).toBe(
        `teamlog: serving member "researcher" (session ${member.sessionId}) of team ${lead.sessionId} over MCP on stdio\n`,
      );
    } finally {
      await Promise.all([leadRuntime.client.close(), memberRuntime.client.close()]);
    }
    const { audit } = json(teamlog(['audit', '--store', url, '--json'])) as { audit: unknown[] };
    expect(audit).toEqual([]);
  });
});

const until = async (done: () => Promise<boolean>): Promise<void> => {
  for (let tries = 0; tries < 300; tries += 1) {
    if (await done()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('timed out');
};

interface Runtime {
  readonly client: Client;
  readonly stderr: () => string;
}

const joinTeam = async (sessionId: SessionId, url: string): Promise<Runtime> => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cliMain, 'mcp', '--session', sessionId, '--store', url],
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => void (stderr += chunk.toString('utf8')));
  const client = new Client({ name: 'agent-runtime', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
};

const send = async (runtime: Runtime, target: string, message: string): Promise<string> => {
  const result = await runtime.client.callTool({ name: 'send_message', arguments: { target, message } });
  if (result.isError === true) throw new Error(JSON.stringify(result.content));
  return (result.structuredContent as { messageId: string }).messageId;
};
