import Database from 'better-sqlite3';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runTeamlog, temporaryDirectory } from './run-teamlog';

/* teamlog audit over the hash chains: the demo's store intact, edited, and compared with heads kept earlier. */

describe('teamlog audit and the hash chains', () => {
  const directory = temporaryDirectory();
  const store = join(directory.path, 'demo.db');
  const kept = join(directory.path, 'heads.txt');
  const keptJson = join(directory.path, 'heads.json');

  beforeAll(() => {
    expect(runTeamlog(['demo', '--store', store]).code).toBe(0);
  });
  afterAll(() => directory.cleanup());

  it('finds the demo clean: no finding, every chain intact', () => {
    const run = runTeamlog(['audit', '--store', store, '--strict']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Audit: no findings\nChains: intact \(\d+ streams, \d+ events\)\n$/);
  });

  it('prints every head digest with --digests, as text or JSON', () => {
    const text = runTeamlog(['audit', '--store', store, '--digests']);
    expect(text.code).toBe(0);
    const lines = text.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^# teamlog audit --digests/);
    expect(lines.slice(1).every((line) => /^session(header)?-\S+ \d+ [0-9a-f]{64}$/.test(line))).toBe(true);
    writeFileSync(kept, text.stdout);
    const json = runTeamlog(['audit', '--store', store, '--digests', '--json']);
    const digests = (
      JSON.parse(json.stdout) as { digests: Array<{ stream: string; revision: number; digest: string }> }
    ).digests;
    expect(digests.map((head) => `${head.stream} ${head.revision} ${head.digest}`)).toEqual(lines.slice(1));
    writeFileSync(keptJson, json.stdout);
  });

  it('names the edited event, compared with kept heads in either form or not; --strict exits 1', () => {
    const db = new Database(store);
    const row = db
      .prepare(
        "SELECT stream_name, revision FROM events WHERE type = 'teamlog/inbox/accepted' ORDER BY position LIMIT 1",
      )
      .get() as { stream_name: string; revision: bigint | number };
    db.prepare(
      "UPDATE events SET data = replace(data, 'Team message from lead:', 'Team message from lead: ') WHERE stream_name = ? AND revision = ?",
    ).run(row.stream_name, row.revision);
    db.close();
    for (const file of [kept, keptJson]) {
      const run = runTeamlog(['audit', '--store', store, '--against', file, '--json', '--strict']);
      expect(run.code).toBe(1);
      const breaks = (
        JSON.parse(run.stdout) as { chains: { breaks: Array<{ code: string; streamName: string; revision: string }> } }
      ).chains.breaks;
      expect(breaks).toEqual([
        expect.objectContaining({
          code: 'chain-event-changed',
          streamName: row.stream_name,
          revision: String(row.revision),
        }),
      ]);
    }
    const text = runTeamlog(['audit', '--store', store]);
    expect(text.stdout).toContain("chain-event-changed: The event's stored bytes");
  });

  it('refuses a malformed file of kept heads, naming the file, line and field (exit 3)', () => {
    const bad = join(directory.path, 'bad.txt');
    writeFileSync(bad, '# heads\nsession-a 3 not-a-digest\n');
    const run = runTeamlog(['audit', '--store', store, '--against', bad]);
    expect(run.code).toBe(3);
    expect(run.stderr.trimEnd()).toBe(
      `teamlog: ${bad}:line 2: digest: expected 64 hex digits or "-", got "not-a-digest"`,
    );
  });
});
