import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runTeamlog, temporaryDirectory } from './run-teamlog';

describe('teamlog export', () => {
  const directory = temporaryDirectory();
  const store = join(directory.path, 'source.db');
  afterAll(() => directory.cleanup());

  beforeAll(() => {
    expect(runTeamlog(['replay', 'fixtures/synthetic', '--store', store]).code).toBe(0);
  }, 60_000);

  const replayed = (file: string) => {
    const run = runTeamlog(['replay', file, '--store', ':memory:', '--json']);
    expect(run.code).toBe(0);
    return JSON.parse(run.stdout);
  };

  it('writes a file that replay reads back into the same session, team and legacy mailbox', () => {
    const out = join(directory.path, 'v0-lead.jsonl');
    const run = runTeamlog(['export', 'v0-lead', '--store', store, '--out', out, '--json']);
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result).toMatchObject({ sessionId: 'v0-lead', formatVersion: 0, compression: 'none', file: out });

    const original = replayed('fixtures/synthetic/v0-mailbox/v0-lead/session.jsonl');
    const copy = replayed(out);
    expect(copy.sessions[0]).toMatchObject({ id: 'v0-lead', formatVersion: 0, events: result.events, recovery: null });
    expect(copy.sessions[0].events).toBe(original.sessions[0].events);
    expect(copy.teams).toEqual(original.teams);
  });

  it('is byte-for-byte the original log for a raw V0 file', () => {
    const out = join(directory.path, 'v0-writer.jsonl');
    expect(runTeamlog(['export', 'v0-writer', '--store', store, '--out', out]).code).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(
      readFileSync('fixtures/synthetic/v0-mailbox/v0-writer/session.jsonl', 'utf8'),
    );
  });

  it('writes zstd frames with --zstd, named after the generation by default, which replay reads back', () => {
    const run = runTeamlog(['export', 'late-lead', '--store', store, '--zstd'], { cwd: directory.path });
    expect(run.code).toBe(0);
    const file = join(directory.path, 'late-lead.v4.jsonl.zstd');
    expect(run.stdout).toContain(`to ${file}`);
    expect(existsSync(file)).toBe(true);
    expect(replayed(file).teams).toEqual(
      replayed('fixtures/synthetic/v4-late-delivery/late-lead/session.v4.jsonl').teams,
    );
  });

  it('exits 3 for a session the store does not hold', () => {
    const run = runTeamlog(['export', 'nobody', '--store', store]);
    expect(run.code).toBe(3);
    expect(run.stderr).toBe('teamlog: no session "nobody" in the store (stream sessionheader-nobody is empty)\n');
  });
});
