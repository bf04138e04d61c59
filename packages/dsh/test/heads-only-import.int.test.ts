import { join } from 'node:path';
import type { SessionId } from '@teamlog/events';
import { HeadsOnlyEventStore, sessionStream } from '@teamlog/store';
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
