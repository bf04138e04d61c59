import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { linesOf } from './harness-script';
import { repoRoot, runTeamlog, storedEventCount, temporaryDirectory } from './run-teamlog';
import { runTeamlogAsync, startTeamlog } from './teamlog-process';

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

  it('takes a Lead log migrated with renumbered seqs as a replay of the final files does: the views of the later generation, no warning', async () => {
    const root = join(directory.path, 'migrated');
    const store = join(directory.path, 'migrated.db');
    const reference = join(directory.path, 'migrated-reference.db');
    const [header = '', ...events] = linesOf(lead);
    await fs.mkdir(join(root, 'direct-lead'), { recursive: true });
    await fs.writeFile(
      join(root, 'direct-lead', 'session.v3.jsonl'),
      [header.replace('"version":4', '"version":3'), ...events].join(''),
    );
    const watch = startTeamlog(['watch', root, '--store', store, '--json']);
    const views = async (at: string): Promise<unknown[]> =>
      Promise.all(
        [['roster'], ['tasks'], ['inbox', 'direct-lead'], ['audit']].map(async (command) => {
          const run = await runTeamlogAsync([...command, '--json', '--store', at]);
          const body = JSON.parse(run.stdout) as Record<string, unknown>;
          return command[0] === 'audit' ? body.audit : body;
        }),
      );
    try {
      expect(JSON.parse(await watch.line())).toMatchObject({ batch: 0, files: 1, warnings: [] });
      // The harness migrates the log: one event inserted at seq 0, every later seq moved by one.
      const inserted = `${JSON.stringify({ type: 'acme/note', seq: 0, time: 1, data: {}, ignorable: true })}\n`;
      const renumbered = events.map((line) =>
        line.replace(/"seq":(\d+)/, (_all, seq: string) => `"seq":${Number(seq) + 1}`),
      );
      const later = join(root, 'direct-lead', 'session.v4.jsonl');
      await fs.writeFile(later, [header, inserted, ...renumbered.slice(0, 5)].join(''));
      await fs.appendFile(later, renumbered.slice(5).join(''));
      expect((await runTeamlogAsync(['replay', root, '--store', reference, '--json'])).code).toBe(0);
      const wanted = await views(reference);
      const deadline = Date.now() + 120_000;
      while (JSON.stringify(await views(store)) !== JSON.stringify(wanted)) {
        if (Date.now() > deadline) throw new Error('timed out waiting until the watched views equal the replay');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(await views(store)).toEqual(wanted);
    } finally {
      watch.child.kill('SIGINT');
    }
    const stopped = await watch.exited;
    expect(stopped.code).toBe(0);
    expect(stopped.stderr).not.toMatch(/warning/);
    // Nothing imported before is gone: the V3 events, the supersession record, the V4 events.
    expect(storedEventCount(store)).toBe(events.length + 1 + events.length + 1 + 2);
  }, 240_000);

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
