import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { defaultDashboardPort } from '@teamlog/dashboard';
import { servePort } from '../src/commands/serve-command';
import { cliMain, repoRoot, runTeamlog, temporaryDirectory } from './run-teamlog';
import { firstLine } from './first-line';

const exitOf = (child: ChildProcess): Promise<number | null> =>
  new Promise((resolve) => child.once('exit', (code) => resolve(code)));

describe('teamlog serve', () => {
  const directory = temporaryDirectory();
  const store = join(directory.path, 'serve.db');
  afterAll(() => directory.cleanup());

  it("uses the dashboard's default port", () => {
    expect(servePort).toBe(defaultDashboardPort);
  });

  it('serves the dashboard API over the store until interrupted, then exits 0', async () => {
    expect(runTeamlog(['replay', 'fixtures/synthetic/v0-mailbox', '--store', store]).code).toBe(0);
    const child = spawn(process.execPath, [cliMain, 'serve', '--store', store, '--port', '0'], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = exitOf(child);
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    try {
      const url = await firstLine(child);
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      const response = await fetch(`${url}api/teams`);
      expect(response.status).toBe(200);
      expect(JSON.stringify(await response.json())).toContain('v0-lead');
    } finally {
      child.kill('SIGINT');
    }
    expect(await exited).toBe(0);
    // replay committed the views into the file: serve starts from them and folds nothing more.
    expect(stderr).toMatch(/views from the store's committed views at \d+\/\d+, 0 newer events folded/);
  });
});
