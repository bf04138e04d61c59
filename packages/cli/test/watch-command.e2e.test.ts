import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { linesOf } from './harness-script';
import { repoRoot, runTeamlog, storedEventCount, temporaryDirectory } from './run-teamlog';
import { startTeamlog } from './teamlog-process';

const lead = join(repoRoot, 'fixtures', 'synthetic', 'v4-direct', 'direct-lead', 'session.v4.jsonl');

describe('teamlog watch', () => {
  const directory = temporaryDirectory();
  afterAll(() => directory.cleanup());

  it('polls with --poll, prints one line per batch, and exits 0 on SIGTERM', async () => {
    const root = join(directory.path, 'polled');
    const store = join(directory.path, 'polled.db');
    const lines = linesOf(lead);
    await fs.mkdir(join(root, 'direct-lead'), { recursive: true });
    await fs.writeFile(join(root, 'direct-lead', 'session.v4.jsonl'), lines.slice(0, 10).join(''));
    const watch = startTeamlog(['watch', root, '--store', store, '--poll=50']);
    try {
      expect(await watch.line()).toMatch(/^imported: 1 file, 9 events, views at \d+\/\d+$/);
      await fs.appendFile(join(root, 'direct-lead', 'session.v4.jsonl'), lines.slice(10).join(''));
      expect(await watch.line((line) => line.startsWith('batch 1:'))).toMatch(
        new RegExp(`^batch 1: 1 file, ${lines.length - 10} events, views at \\d+/\\d+$`),
      );
    } finally {
      watch.child.kill('SIGTERM');
    }
    const stopped = await watch.exited;
    expect(stopped.code).toBe(0);
    expect(stopped.stderr).toMatch(/polling every 50 ms/);
    expect(storedEventCount(store)).toBe(lines.length); // the events and the header record
  });

  it('says what is wrong with its arguments: a missing root (exit 3), a bad --poll (exit 2), --poll without --follow on serve (exit 2)', () => {
    const missing = runTeamlog(['watch', join(directory.path, 'nowhere'), '--store', join(directory.path, 'x.db')]);
    expect({ code: missing.code, stderr: missing.stderr }).toEqual({
      code: 3,
      stderr: `teamlog: ${join(directory.path, 'nowhere')}: no such file or directory\n`,
    });
    const badPoll = runTeamlog(['watch', directory.path, '--poll=soon']);
    expect(badPoll.code).toBe(2);
    expect(badPoll.stderr).toContain('watch: --poll expects a number of milliseconds');
    const serve = runTeamlog(['serve', '--poll', '--store', join(directory.path, 'x.db')]);
    expect(serve.code).toBe(2);
    expect(serve.stderr).toContain('serve: --poll goes with --follow ROOT');
    expect(runTeamlog(['--help']).stdout).toMatch(
      /\n {2}watch +Import the session logs under a root, then keep following them/,
    );
  });
});
