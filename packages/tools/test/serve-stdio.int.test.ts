import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { SqliteEventStore } from '@teamlog/store-sqlite';
import { createTeamMcpServer, serveStdio } from '@teamlog/tools';
import { memberOf, toolTeam } from './tool-team';

/* Newline-delimited JSON-RPC over a pair of streams, as `teamlog mcp` serves it on stdin and stdout. */

const frames = (text: string): unknown[] =>
  text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as unknown);

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
};
const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

describe('serveStdio', () => {
  it('given a call and the input closed right after it, then the call is answered before the server stops', async () => {
    // A real SQLite file: its durable commit takes a turn of the event loop, as in `teamlog mcp`.
    const directory = mkdtempSync(join(tmpdir(), 'teamlog-tools-'));
    const store = SqliteEventStore.open(join(directory, 'team.db'));
    cleanups.push(async () => {
      await store.close();
      rmSync(directory, { recursive: true, force: true });
    });
    const team = await toolTeam(['reviewer'], store);
    const input = new PassThrough();
    const output = new PassThrough();
    let written = '';
    output.on('data', (chunk: Buffer) => void (written += chunk.toString('utf8')));
    const serving = serveStdio(
      createTeamMcpServer({ session: memberOf(team, 'reviewer') }),
      { input, output },
      new Promise(() => undefined),
    );
    const send = {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'send_message', arguments: { target: 'lead', message: 'done' } },
    };
    input.end([initialize, initialized, send].map((frame) => `${JSON.stringify(frame)}\n`).join(''));
    await serving;
    const [accepted] = await team.lead.inbox();
    expect(frames(written)).toEqual([
      expect.objectContaining({
        id: 1,
        result: expect.objectContaining({ serverInfo: { name: 'teamlog', version: '0.1.0' } }),
      }),
      expect.objectContaining({
        id: 2,
        result: expect.objectContaining({ structuredContent: { messageId: accepted?.id, target: 'lead' } }),
      }),
    ]);
  });

  it('given `until` resolves (Ctrl-C), then serving stops with the input still open', async () => {
    const team = await toolTeam([]);
    let interrupt: () => void = () => undefined;
    const until = new Promise<void>((resolve) => {
      interrupt = resolve;
    });
    const serving = serveStdio(
      createTeamMcpServer({ session: team.lead }),
      { input: new PassThrough(), output: new PassThrough() },
      until,
    );
    interrupt();
    await expect(serving).resolves.toBeUndefined();
  });

  it('given an oversized frame, an unparsable one and bad params, then each gets its JSON-RPC error and the server keeps serving', async () => {
    const team = await toolTeam(['reviewer']);
    const input = new PassThrough();
    const output = new PassThrough();
    let written = '';
    output.on('data', (chunk: Buffer) => void (written += chunk.toString('utf8')));
    const serving = serveStdio(
      createTeamMcpServer({ session: memberOf(team, 'reviewer') }),
      { input, output },
      new Promise(() => undefined),
      { maxFrameBytes: 64 * 1024 },
    );
    const oversized = {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'send_message', arguments: { target: 'lead', message: 'x'.repeat(100 * 1024) } },
    };
    const badParams = { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: ['send_message'] } };
    const list = { jsonrpc: '2.0', id: 4, method: 'tools/list' };
    input.end(
      [
        JSON.stringify(initialize),
        JSON.stringify(initialized),
        JSON.stringify(oversized),
        '{"jsonrpc":',
        JSON.stringify(badParams),
        JSON.stringify(list),
      ]
        .map((frame) => `${frame}\n`)
        .join(''),
    );
    await serving;
    // Answers come as each is ready (JSON-RPC does not order them): one for every request.
    expect(frames(written)).toHaveLength(5);
    expect(frames(written)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: 1, result: expect.anything() }),
        { jsonrpc: '2.0', id: 2, error: { code: -32600, message: expect.stringContaining('longer than 65536 bytes') } },
        { jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.stringMatching(/^Parse error/) } },
        {
          jsonrpc: '2.0',
          id: 3,
          error: {
            code: -32602,
            message: expect.stringMatching(/^Invalid params of tools\/call: params\.name: [^\n]+\.$/),
          },
        },
        expect.objectContaining({ id: 4, result: expect.objectContaining({ tools: expect.any(Array) }) }),
      ]),
    );
    expect(await team.lead.inbox()).toEqual([]);
  });
});
