import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SessionId } from '@teamlog/events';
import { generateSyntheticLog } from '@teamlog/test-support/synthetic-log';
import {
  type CommitParticipant,
  HeadsOnlyEventStore,
  type RecordedEvent,
  foldedBatchEvents,
  sessionHeaderStream,
  sessionStream,
} from '@teamlog/store';
import { importSessionLog } from '../src';

const repoRoot = join(__dirname, '..', '..', '..');

const lead = join(repoRoot, 'fixtures/synthetic/v4-late-delivery/late-lead/session.v4.jsonl');
const analyst = join(repoRoot, 'fixtures/synthetic/v4-late-delivery/late-analyst/session.v4.jsonl');

describe('importing into the heads-only store of a one-shot replay', () => {
  it('imports each session whole, from the heads alone', async () => {
    const store = new HeadsOnlyEventStore();
    const results = [await importSessionLog(lead, store), await importSessionLog(analyst, store)];
    expect(results.map((result) => [result.rejected, result.appended === result.events, result.events > 0])).toEqual([
      [undefined, true, true],
      [undefined, true, true],
    ]);
  });

  it('opens a log twice: once for its head, once for the read that validates and imports it', async () => {
    const store = new HeadsOnlyEventStore();
    const opens = jest.spyOn(fs, 'open');
    try {
      const result = await importSessionLog(lead, store);
      expect(result.rejected).toBeUndefined();
      expect(opens.mock.calls.map(([file]) => file)).toEqual([lead, lead]);
    } finally {
      opens.mockRestore();
    }
  });

  it('rejects a second copy of a session in one line, since its imported prefix cannot be compared, and writes nothing', async () => {
    const store = new HeadsOnlyEventStore();
    const first = await importSessionLog(lead, store);
    const stream = sessionStream(first.streamSessionId as SessionId);
    const revision = await store.streamRevision(stream);
    const again = await importSessionLog(lead, store);
    expect(again.rejected).toMatchObject({ reason: 'prefix-not-kept' });
    expect(again.rejected?.message).toBe(
      `${lead}: the session is already in the store, which keeps no events to compare it with (stream session-late-lead: only its first and last event are kept: this store keeps no events (a one-shot replay, --store :memory:)); nothing was written`,
    );
    expect(again.appended).toBe(0);
    expect(await store.streamRevision(stream)).toBe(revision);
  });
});

/** Inline views as the store sees them: what they folded, when, and whether it was kept. */
const views = (): CommitParticipant & { readonly calls: string[]; staged: number } => {
  let checkpoint: RecordedEvent['position'] | undefined;
  let folded: RecordedEvent['position'] | undefined;
  const participant = {
    calls: [] as string[],
    staged: 0,
    get checkpoint() {
      return checkpoint;
    },
    stage: (recorded: readonly RecordedEvent[]) => {
      participant.staged += recorded.length;
      folded = recorded[recorded.length - 1]?.position ?? folded;
    },
    prepare: (recorded: readonly RecordedEvent[]) => {
      folded = recorded[recorded.length - 1]?.position ?? folded;
    },
    committed: () => {
      checkpoint = folded;
      participant.calls.push(`committed ${participant.staged}`);
    },
    aborted: () => {
      folded = checkpoint;
      participant.calls.push(`aborted ${participant.staged}`);
    },
  };
  return participant;
};

/** A synthetic log past the reader's 1 MiB read buffer, its last line a `turn/start` whose payload its codec refuses. */
const logRejectedAtItsEnd = async (directory: string, sessionId: string): Promise<{ file: string; line: number }> => {
  const file = join(directory, `${sessionId}.v4.jsonl`);
  await generateSyntheticLog({ file, targetBytes: 3 * 1024 * 1024, formatVersion: 4, sessionId });
  const lines = (await fs.readFile(file, 'utf8')).split('\n').filter((line) => line !== '');
  const last = JSON.parse(lines[lines.length - 1] as string) as { seq: number; time: number };
  await fs.appendFile(
    file,
    `${JSON.stringify({ type: 'turn/start', seq: last.seq + 1, time: last.time, data: { turn: 'one' } })}\n`,
  );
  return { file, line: lines.length + 1 };
};

describe('a one-shot replay into the heads-only store', () => {
  let directory: string;
  beforeEach(async () => {
    directory = await fs.mkdtemp(join(tmpdir(), 'teamlog-heads-only-'));
  });
  afterEach(async () => {
    await fs.rm(directory, { recursive: true, force: true });
  });

  it('folds its first file as it reads it, past the single-pass budget, and a rejection at its last line leaves no view and no stream', async () => {
    const store = new HeadsOnlyEventStore();
    const inline = views();
    store.participate(inline);
    const { file, line } = await logRejectedAtItsEnd(directory, 'synthetic-0000-4000-8000-00000000000a');

    const result = await importSessionLog(file, store, { batchEvents: 500, singlePassBytes: 0 });

    expect(result.rejected).toMatchObject({ line });
    expect(result.rejected?.message).toContain(`line ${line}: data.turn`);
    // Folded in the read that found the bad line (one read, no second): the header and every chunk before it.
    expect(inline.staged).toBeGreaterThan(1000);
    expect(inline.calls).toEqual([`aborted ${inline.staged}`]);
    const key = 'synthetic-0000-4000-8000-00000000000a' as SessionId;
    expect(await store.streamRevision(sessionStream(key))).toBeUndefined();
    expect(await store.streamRevision(sessionHeaderStream(key))).toBeUndefined();
  });

  it("folds a file read once in the batches its unit asks for, not the import's larger ones, at the same positions", async () => {
    const file = join(directory, 'synthetic-0000-4000-8000-00000000000c.v4.jsonl');
    await generateSyntheticLog({ file, targetBytes: 1024 * 1024, formatVersion: 4 });
    const folded = async (asked: boolean) => {
      const store = new HeadsOnlyEventStore();
      const batches: number[] = [];
      const positions: bigint[] = [];
      store.participate({
        ...views(),
        stage: (recorded) => {
          batches.push(recorded.length);
          for (const event of recorded) positions.push(event.position.commit);
        },
      });
      // Without the unit's ask: the import's own chunks, staged whole.
      const stageAppends = store.stageAppends.bind(store);
      if (!asked) store.stageAppends = () => ({ ...stageAppends(), batchEvents: undefined });
      const result = await importSessionLog(file, store, { batchEvents: 1000 });
      return { result, batches, positions };
    };

    const asked = await folded(true);
    const whole = await folded(false);

    expect(asked.result.rejected).toBeUndefined();
    expect(asked.result.events).toBeGreaterThan(2000);
    expect(Math.max(...asked.batches)).toBe(foldedBatchEvents);
    expect(Math.max(...whole.batches)).toBe(1000);
    expect(asked.positions).toEqual(whole.positions);
    expect(asked.positions.length).toBe(asked.result.events + 1);
  });

  it('validates a later file whole first when the views cannot undo its fold, so its rejection keeps what they hold', async () => {
    const store = new HeadsOnlyEventStore();
    const inline = views();
    store.participate(inline);
    expect((await importSessionLog(lead, store)).rejected).toBeUndefined();
    const held = inline.staged;
    const { file, line } = await logRejectedAtItsEnd(directory, 'synthetic-0000-4000-8000-00000000000b');

    const result = await importSessionLog(file, store, { batchEvents: 500, singlePassBytes: 0 });

    expect(result.rejected).toMatchObject({ line });
    expect(inline.staged).toBe(held);
    expect(inline.calls).toEqual([`committed ${held}`]);
  });
});
