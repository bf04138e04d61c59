import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { SqliteEventStore } from '@teamlog/store-sqlite';
import { createTeamLog } from '@teamlog/team';
import { cliMain, repoRoot, temporaryDirectory } from './run-teamlog';

/* `teamlog mcp` answers every frame: one over 10 MiB, one that is not JSON, bad params; and serves on. */

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } },
};
const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };

describe('teamlog mcp with bad frames', () => {
  it('given a frame over 10 MiB, an unparsable one and bad params, then each is answered with a JSON-RPC error and the next call is served; it exits 0 when stdin closes', async () => {
    const directory = temporaryDirectory();
    try {
      const file = join(directory.path, 'team.db');
      const store = SqliteEventStore.open(file);
      const teamlog = createTeamLog({ store });
      const lead = await teamlog.createTeam();
      await teamlog.dispose();
      await store.close();

      const child = spawn(process.execPath, [cliMain, 'mcp', '--session', lead.sessionId, '--store', file], {
        cwd: repoRoot,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => void (stdout += chunk.toString('utf8')));
      child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString('utf8')));
      const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
      const oversized = JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'send_message', arguments: { target: 'lead', message: 'x'.repeat(11 * 1024 * 1024) } },
      });
      const frames = [
        JSON.stringify(initialize),
        JSON.stringify(initialized),
        oversized,
        '{"jsonrpc":"2.0",',
        JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'resources/read', params: { uri: 7 } }),
        JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/list' }),
      ];
      child.stdin.end(frames.map((frame) => `${frame}\n`).join(''));
      expect(await exited).toBe(0);
      const answers = stdout
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as { id: unknown });
      expect(answers).toHaveLength(5);
      expect(answers).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ id: 1, result: expect.anything() }),
          {
            jsonrpc: '2.0',
            id: 2,
            error: { code: -32600, message: expect.stringContaining('longer than 10485760 bytes') },
          },
          {
            jsonrpc: '2.0',
            id: null,
            error: { code: -32700, message: expect.stringMatching(/^Parse error: [^\n]+$/) },
          },
          {
            jsonrpc: '2.0',
            id: 3,
            error: {
              code: -32602,
              message: expect.stringMatching(/^Invalid params of resources\/read: params\.uri: [^\n]+\.$/),
            },
          },
          expect.objectContaining({ id: 4, result: expect.objectContaining({ tools: expect.any(Array) }) }),
        ]),
      );
      expect(stderr).not.toMatch(/\n\s+at /);
    } finally {
      directory.cleanup();
    }
  }, 120_000);
});
