import { type EventStore, InMemoryEventStore, type StoredLink, streamName } from '@teamlog/store';
import { ChainFindings, chainRow } from '../src/chain-findings';

describe('chain findings for the audit panel', () => {
  it('links a changed session event to its seq, a header stream to seq -1, and a removed event to nothing', () => {
    const base = { revision: 4n, detail: 'd' };
    expect(chainRow({ ...base, code: 'chain-event-changed', streamName: streamName('session-s1') })).toMatchObject({
      sessionId: 's1',
      revision: '4',
      eventUrl: '/api/event?sessionId=s1&seq=4',
      explanation: expect.stringContaining('changed after it was written'),
    });
    expect(
      chainRow({ ...base, code: 'chain-event-unchained', streamName: streamName('sessionheader-s1') }),
    ).toMatchObject({ sessionId: 's1', eventUrl: '/api/event?sessionId=s1&seq=-1' });
    const removed = chainRow({ ...base, code: 'chain-event-removed', streamName: streamName('session-s1') });
    expect([removed.sessionId, removed.eventUrl]).toEqual(['s1', undefined]);
    expect(
      chainRow({ ...base, code: 'chain-event-changed', streamName: streamName('other') }).eventUrl,
    ).toBeUndefined();
  });

  it("links a superseded session's break at its seq in the last generation, and an earlier generation's to nothing", () => {
    const baseOf = () => 10;
    const later = chainRow(
      { revision: 14n, detail: 'd', code: 'chain-event-changed', streamName: streamName('session-s1') },
      baseOf,
    );
    expect(later.eventUrl).toBe('/api/event?sessionId=s1&seq=4');
    const earlier = chainRow(
      { revision: 3n, detail: 'd', code: 'chain-event-changed', streamName: streamName('session-s1') },
      baseOf,
    );
    expect([earlier.sessionId, earlier.revision, earlier.eventUrl]).toEqual(['s1', '3', undefined]);
    const header = chainRow(
      { revision: 1n, detail: 'd', code: 'chain-event-changed', streamName: streamName('sessionheader-s1') },
      baseOf,
    );
    expect(header.eventUrl).toBe('/api/event?sessionId=s1&seq=-1');
  });

  it('says a store without chains is not checked', async () => {
    expect(await new ChainFindings(new InMemoryEventStore()).read()).toEqual({
      checked: false,
      streams: 0,
      events: 0,
      findings: [],
    });
  });

  it('shares one walk among the reads that arrive while it runs, and walks again after it', async () => {
    let walks = 0;
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const store = {
      async *readStoredLinks(): AsyncGenerator<StoredLink> {
        walks += 1;
        await gate;
        yield* [];
      },
    } as unknown as EventStore;
    const findings = new ChainFindings(store);
    const first = findings.read();
    const second = findings.read();
    release();
    // One walk answers both (each read links its breaks at the seqs it was given).
    expect(await first).toEqual(await second);
    expect(walks).toBe(1);
    await findings.read();
    expect(walks).toBe(2);
  });
});
