import type { EventId, JsonValue } from '@teamlog/events';
import {
  type ProjectionState,
  evolveProjection,
  initialInMemoryProjectionState,
  initialProjectionState,
} from '@teamlog/projections';
import { type RecordedEvent, streamName } from '@teamlog/store';
import { mailboxItem, splice } from '@teamlog/test-support/session-log-builder';

const recorded = (revision: number, type: string, data: JsonValue): RecordedEvent => ({
  streamName: streamName('session-a'),
  revision: BigInt(revision),
  position: { commit: BigInt(revision), prepare: BigInt(revision) },
  id: `a-${revision}` as EventId,
  type,
  data,
  metadata: undefined,
  recordedAt: new Date(0),
});

const spliced = (): RecordedEvent => {
  const event = splice('next-turn', 0, [mailboxItem('lead-1', 'tm-1', 'lead-1', 'lead', 'item-9')]);
  return recorded(0, event.type, event.data as JsonValue);
};

const pending = (state: ProjectionState) => ({
  entries: [...state.changes.inboxEntries].map(([id, indexes]) => [id, [...indexes]]),
  lists: [...state.changes.inboxLists],
  held: state.changes.held.map(({ messageId }) => messageId),
});

describe('the inbox changes a fold of the views records', () => {
  it('given views a view store writes, then an inbox event records its entries and held ids', () => {
    const state = initialProjectionState();
    evolveProjection(state, spliced());
    expect(pending(state)).toEqual({ entries: [['a', [0]]], lists: ['a'], held: ['item-9', 'tm-1'] });
  });

  it('given views kept only in memory, then an inbox event records no change, and the inbox holds it', () => {
    const state = initialInMemoryProjectionState();
    evolveProjection(state, spliced());
    expect(pending(state)).toEqual({ entries: [], lists: [], held: [] });
    expect(state.inboxes.get('a' as never)?.state.entries).toHaveLength(1);
  });

  it('given an inbox event that is not an acceptance and carries its time, then its metadata is not read', () => {
    const state = initialInMemoryProjectionState();
    // As a one-shot replay's event: its time without the metadata, made only when asked for.
    const event: RecordedEvent = { ...spliced(), metadataTime: 5, metadataNormalised: false };
    Object.defineProperty(event, 'metadata', {
      get: () => {
        throw new Error('metadata read');
      },
    });
    expect(() => evolveProjection(state, event)).not.toThrow();
  });
});
