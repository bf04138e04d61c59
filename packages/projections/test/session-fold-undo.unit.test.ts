import type { EventId } from '@teamlog/events';
import { type RecordedEvent, streamName } from '@teamlog/store';
import {
  type ProjectionState,
  SessionFoldUndo,
  clearChangesInMemory,
  evolveProjection,
  initialInMemoryProjectionState,
} from '@teamlog/projections';

let commit = 0n;
const recorded = (stream: string, revision: number, type = 'user/message'): RecordedEvent => {
  commit += 8n;
  return {
    streamName: streamName(stream),
    revision: BigInt(revision),
    position: { commit, prepare: commit },
    id: `${stream}-${revision}` as EventId,
    type,
    data: { text: 'hello' },
    metadata: undefined,
    recordedAt: new Date(0),
  };
};

const fold = (state: ProjectionState, events: readonly RecordedEvent[]): void => {
  for (const event of events) evolveProjection(state, event);
};

/** Views holding session `a`, committed (no pending change). */
const holdingA = (): ProjectionState => {
  const state = initialInMemoryProjectionState();
  fold(state, [recorded('sessionheader-a', 0, 'teamlog/session/header'), recorded('session-a', 0)]);
  clearChangesInMemory(state);
  return state;
};

const shape = (state: ProjectionState) => ({
  sessions: [...state.sessions.keys()],
  teams: [...state.teams.keys()],
  inboxes: [...state.inboxes.keys()],
  changed: [...state.changes.sessions],
});

describe('the undo log of the views folded as a unit is staged', () => {
  it('undoes the folds of sessions the views did not hold, leaving the views as committed', () => {
    const state = holdingA();
    const before = shape(state);
    const undo = new SessionFoldUndo();
    const batches = [[recorded('sessionheader-b', 0, 'teamlog/session/header')], [recorded('session-b', 0)]];
    for (const batch of batches) {
      expect(undo.admit(state, batch)).toBe(true);
      fold(state, batch);
    }
    expect(shape(state).sessions).toEqual(['a', 'b']);

    expect(undo.undo()).toBe(true);

    expect(shape(state)).toEqual(before);
  });

  it('refuses a batch of a session the views hold (folded in place, it could not be put back), remembering none of it', () => {
    const state = holdingA();
    const undo = new SessionFoldUndo();
    expect(undo.admit(state, [recorded('session-c', 0), recorded('session-a', 1)])).toBe(false);
    fold(state, [recorded('session-c', 0)]);
    expect(undo.admit(state, [recorded('session-d', 0)])).toBe(true);
    fold(state, [recorded('session-d', 0)]);

    expect(undo.undo()).toBe(true);

    expect(shape(state).sessions).toEqual(['a', 'c']);
  });

  it('cannot undo once a fold it did not admit was made, nor before it admitted any', () => {
    const state = holdingA();
    const undo = new SessionFoldUndo();
    expect(undo.undo()).toBe(false);
    expect(undo.admit(state, [recorded('session-b', 0)])).toBe(true);
    undo.spoil();
    expect(undo.undo()).toBe(false);
  });
});

describe('the fold of an event recorded with its revision as a number', () => {
  it('reads the seq from `revisionNumber`, never making the BigInt revision', () => {
    const state = initialInMemoryProjectionState();
    const numbered = (revisionNumber: number, type: string, data: RecordedEvent['data']): RecordedEvent => ({
      ...recorded('session-n', revisionNumber, type),
      data,
      revisionNumber,
      get revision(): bigint {
        throw new Error('the BigInt revision was read');
      },
    });
    fold(state, [numbered(0, 'message', {}), numbered(3, 'session/end-seed', { inherited: true })]);
    expect(state.sessions.get('n' as never)?.inheritedEndSeedSeq).toBe(3);
  });
});

describe('the fold of an event holding its metadata time without making its metadata', () => {
  const timed = (revision: number, metadataTime: number, metadataNormalised: boolean): RecordedEvent => ({
    ...recorded('session-t', revision, 'message'),
    data: {},
    metadataTime,
    metadataNormalised,
    get metadata(): RecordedEvent['metadata'] {
      throw new Error('the metadata was made');
    },
  });

  it('takes the time from `metadataTime`, never reading the metadata', () => {
    const state = initialInMemoryProjectionState();
    fold(state, [timed(0, 1791190800180, false), timed(1, 1791190800300, false)]);
    expect(state.sessions.get('t' as never)?.lastTime).toBe(1791190800300);
  });

  it('takes a normalised event as the metadata would say, its time telling nothing', () => {
    const state = initialInMemoryProjectionState();
    fold(state, [timed(0, 1791190800180, false), timed(1, 0, true)]);
    expect(state.sessions.get('t' as never)?.lastTime).toBe(1791190800180);
  });
});
