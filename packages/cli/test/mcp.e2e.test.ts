import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { SessionId } from '@teamlog/events';
import { TeamlogProjections } from '@teamlog/projections';
import { sessionStream } from '@teamlog/store';
import { SqliteEventStore } from '@teamlog/store-sqlite';
import { createTeamLog } from '@teamlog/team';
import { cliMain, runTeamlog, temporaryDirectory } from './run-teamlog';

/* Several agent runtimes, each with its own `teamlog mcp` process on one SQLite file, form one team. */

interface Team {
  readonly lead: SessionId;
  readonly researcher: SessionId;
  readonly reviewer: SessionId;
}

/** The team is created with the library; only session ids travel to the processes. */
const createTeam = async (file: string): Promise<Team> => {
  const store = SqliteEventStore.open(file);
  const teamlog = createTeamLog({ store });
  const lead = await teamlog.createTeam();
  const researcher = await lead.spawnMember({ name: 'researcher', description: 'finds the approach' });
  const reviewer = await lead.spawnMember({ name: 'reviewer', description: 'reviews the change' });
  await teamlog.dispose();
  await store.close();
  return { lead: lead.sessionId, researcher: researcher.sessionId, reviewer: reviewer.sessionId };
};

interface Runtime {
  readonly client: Client;
  readonly updates: string[];
  readonly stderr: () => string;
}

/** An MCP client as an agent runtime starts one: `teamlog mcp --session ID --store FILE` as its child process. */
const joinTeam = async (sessionId: SessionId, file: string): Promise<Runtime> => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [cliMain, 'mcp', '--session', sessionId, '--store', file],
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => void (stderr += chunk.toString('utf8')));
  const client = new Client({ name: 'agent-runtime', version: '1.0.0' });
  const updates: string[] = [];
  client.setNotificationHandler(
    ResourceUpdatedNotificationSchema,
    (notification) => void updates.push(notification.params.uri),
  );
  await client.connect(transport);
  return { client, updates, stderr: () => stderr };
};

const send = async (runtime: Runtime, target: string, message: string): Promise<string> => {
  const result = await runtime.client.callTool({ name: 'send_message', arguments: { target, message } });
  if (result.isError === true) throw new Error(JSON.stringify(result.content));
  return (result.structuredContent as { messageId: string }).messageId;
};

const readJson = async (runtime: Runtime, uri: string): Promise<unknown> => {
  const [content] = (await runtime.client.readResource({ uri })).contents;
  return JSON.parse(content !== undefined && 'text' in content ? content.text : 'null');
};

const until = async (done: () => boolean): Promise<void> => {
  for (let tries = 0; tries < 300 && !done(); tries += 1) await new Promise((resolve) => setTimeout(resolve, 20));
};

describe('teamlog mcp: a team of agent runtimes on one SQLite file', () => {
  it("given a Lead and two members each behind its own teamlog mcp process, then their messages reach each other's inboxes with true attribution", async () => {
    const directory = temporaryDirectory();
    const file = join(directory.path, 'team.db');
    const team = await createTeam(file);
    const [lead, researcher, reviewer] = [
      await joinTeam(team.lead, file),
      await joinTeam(team.researcher, file),
      await joinTeam(team.reviewer, file),
    ];
    const sent: Record<string, string> = {};
    try {
      expect((await lead.client.listTools()).tools.map((tool) => tool.name)).toContain('spawn_member');
      expect((await researcher.client.listTools()).tools.map((tool) => tool.name)).not.toContain('spawn_member');
      const reviewerInbox = `teamlog://sessions/${team.reviewer}/inbox`;
      await reviewer.client.subscribeResource({ uri: reviewerInbox });

      sent.leadToResearcher = await send(lead, 'researcher', 'Find how the logs are framed.');
      sent.researcherToReviewer = await send(researcher, 'reviewer', 'Frames are zstd; please check my reading.');
      sent.reviewerToResearcher = await send(reviewer, 'researcher', 'Checked: correct.');
      sent.reviewerToLead = await send(reviewer, 'lead', 'The framing note is reviewed.');
      await until(() => reviewer.updates.length >= 1);
      expect(reviewer.updates).toEqual([reviewerInbox]);

      expect(await readJson(reviewer, reviewerInbox)).toEqual({
        messages: [
          {
            id: sent.researcherToReviewer,
            from: 'researcher',
            fromSessionId: team.researcher,
            status: 'pending',
            text: 'Team message from researcher:\nFrames are zstd; please check my reading.',
          },
        ],
      });
      const researcherInbox = (await researcher.client.callTool({ name: 'read_inbox', arguments: {} }))
        .structuredContent as { messages: { id: string; from: string }[] };
      expect(researcherInbox.messages.map((message) => [message.id, message.from])).toEqual([
        [sent.leadToResearcher, 'lead'],
        [sent.reviewerToResearcher, 'reviewer'],
      ]);

      // Tasks too are shared: the Lead creates, a member claims, the Lead sees the owner.
      await lead.client.callTool({ name: 'create_task', arguments: { subject: 'Review the framing note' } });
      expect(
        (await reviewer.client.callTool({ name: 'claim_task', arguments: { taskId: 'task-1' } })).isError,
      ).toBeUndefined();
      expect(await readJson(lead, `teamlog://teams/${team.lead}/tasks`)).toMatchObject({
        tasks: [{ id: 'task-1', owner: 'reviewer', status: 'in_progress' }],
      });

      expect(lead.stderr()).toContain(`teamlog: serving lead "lead" (session ${team.lead})`);
    } finally {
      await Promise.all([lead.client.close(), researcher.client.close(), reviewer.client.close()]);
    }

    const store = SqliteEventStore.open(file);
    try {
      const accepted = async (sessionId: SessionId) => {
        const senders: [string, unknown][] = [];
        for await (const event of store.readStream(sessionStream(sessionId))) {
          if (event.type !== 'teamlog/inbox/accepted') continue;
          const { message } = event.data as {
            message: { id: string; source: { senderSessionId: string; senderName: string } };
          };
          senders.push([message.id, [message.source.senderSessionId, message.source.senderName]]);
        }
        return senders;
      };
      expect(await accepted(team.reviewer)).toEqual([[sent.researcherToReviewer, [team.researcher, 'researcher']]]);
      expect(await accepted(team.lead)).toEqual([[sent.reviewerToLead, [team.reviewer, 'reviewer']]]);
      expect(await accepted(team.researcher)).toEqual([
        [sent.leadToResearcher, [team.lead, 'lead']],
        [sent.reviewerToResearcher, [team.reviewer, 'reviewer']],
      ]);
      const projections = await TeamlogProjections.inMemory(store);
      await projections.catchUp();
      expect(projections.views().audit()).toEqual([]);
      const peers = projections
        .views()
        .inbox({ peerOnly: true })
        .map((entry) => [entry.sessionId, entry.senderSessionId, entry.senderName]);
      expect(peers.sort()).toEqual(
        [
          [team.researcher, team.lead, 'lead'],
          [team.reviewer, team.researcher, 'researcher'],
          [team.researcher, team.reviewer, 'reviewer'],
          [team.lead, team.reviewer, 'reviewer'],
        ].sort(),
      );
    } finally {
      await store.close();
      directory.cleanup();
    }
  });
});

/** Run `teamlog mcp` with these frames on stdin (then closed); its stdout, stderr and exit code. */
const rawMcp = (
  args: readonly string[],
  frames: readonly object[],
): Promise<{ readonly code: number | null; readonly stdout: string; readonly stderr: string }> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliMain, 'mcp', ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => void (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(frames.map((frame) => `${JSON.stringify(frame)}\n`).join(''));
  });

describe('teamlog mcp: the process', () => {
  it('given frames on stdin, then stdout holds only JSON-RPC frames, the log line goes to stderr, and closing stdin exits 0', async () => {
    const directory = temporaryDirectory();
    const file = join(directory.path, 'team.db');
    const team = await createTeam(file);
    const frames = [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
      {
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'send_message', arguments: { target: 'lead', message: 'hi', sender: 'lead' } },
      },
      {
        jsonrpc: '2.0',
        id: 4,
        method: 'tools/call',
        params: { name: 'send_message', arguments: { target: 'lead', message: 'hi' } },
      },
    ];
    const run = await rawMcp(['--session', team.reviewer, '--store', file], frames);
    directory.cleanup();
    expect(run.code).toBe(0);
    const lines = run.stdout.split('\n').filter((line) => line !== '');
    const replies = lines.map(
      (line) => JSON.parse(line) as { jsonrpc: string; id: number; result: { isError?: boolean } },
    );
    expect(replies.map((reply) => [reply.jsonrpc, reply.id])).toEqual([
      ['2.0', 1],
      ['2.0', 2],
      ['2.0', 3],
      ['2.0', 4],
    ]);
    expect(replies.map((reply) => reply.result.isError)).toEqual([undefined, undefined, true, undefined]);
    expect(run.stderr).toBe(
      `teamlog: serving member "reviewer" (session ${team.reviewer}) of team ${team.lead} over MCP on stdio\n`,
    );
  });

  it('given no --session, an unknown session or --help, then the exit code is 2, 3 or 0 and an error is one line', async () => {
    const directory = temporaryDirectory();
    const file = join(directory.path, 'team.db');
    await createTeam(file);
    const missing = runTeamlog(['mcp', '--store', file]);
    expect([missing.code, missing.stderr]).toEqual([
      2,
      'teamlog: mcp: --session ID is required (see "teamlog mcp --help")\n',
    ]);
    const unknown = runTeamlog(['mcp', '--session', 'nobody', '--store', file]);
    expect([unknown.code, unknown.stdout, unknown.stderr]).toEqual([
      3,
      '',
      `teamlog: session "nobody" is not the Lead or a member of a teamlog team (no active team session "nobody" in ${file}); \`teamlog sessions --store ${file}\` lists the live ones, \`teamlog team create --store ${file}\` makes a team\n`,
    ]);
    const help = runTeamlog(['mcp', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('stdin and stdout carry only MCP frames');
    directory.cleanup();
  });
});
