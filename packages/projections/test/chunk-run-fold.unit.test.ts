import type { EventId, JsonValue } from '@teamlog/events';
import { type RecordedEvent, sessionStream, streamName } from '@teamlog/store';
import {
  type ProjectionState,
  evolveProjection,
  initialOneShotProjectionState,
  initialProjectionState,
  referenceEraRules,
  teamlogProjection,
} from '@teamlog/projections';
import { sid } from '@teamlog/test-support/session-log-builder';

const recordedAt = new Date(Date.UTC(2026, 0, 1));

/** A session's events as a store records them: revision = seq, metadata the importer's. */
const session = (
  id: string,
  events: ReadonlyArray<readonly [type: string, data: JsonValue, metadata?: JsonValue]>,
  firstCommit = 1,
): RecordedEvent[] =>
  events.map(([type, data, metadata], seq) => {
    const commit = BigInt(firstCommit + seq * 100);
    return {
      streamName: sessionStream(sid(id)),
      revision: BigInt(seq),
      position: { commit, prepare: commit },
      id: `${id}-${seq}` as EventId,
      type,
      data,
      metadata: metadata === undefined ? { time: 1_000 + seq, packed: 'text-chunks' } : metadata,
      recordedAt,
      catalog: false,
    };
  });

const chunk = (text: string): readonly [string, JsonValue] => [
  'assistant/chunk',
  { turn: 1, step: 1, chunk: { type: 'text-delta', index: 0, text } },
];
const chunks = (count: number): Array<readonly [string, JsonValue]> =>
  Array.from({ length: count }, (_, index) => chunk(`t${index} `));

/** A log whose first event is a chunk, with runs inside turns, a normalised run and an odd metadata. */
const events = (): RecordedEvent[] => [
  ...session('s-1', [
    ...chunks(3),
    ['turn/start', { turn: 1 }, { time: 2_000 }],
    ['step/start', { turn: 1, step: 1 }, { time: 2_001 }],
    ...chunks(24),
    ['assistant/message', { turn: 1, step: 1, message: {} }, { time: 3_000 }],
    ...chunks(2),
    ['turn/end', { turn: 1, reason: { kind: 'completed' } }, { time: 4_000 }],
    ...chunks(5),
  ]),
  ...session(
    's-2',
    [
      chunk('a'),
      [...chunk('b'), { normalised: true }],
      [...chunk('c'), { time: 9, normalised: true }],
      [...chunk('d'), 'not metadata'],
      [...chunk('e'), { time: 5_000 }],
      [...chunk('f'), { time: 4_000 }],
    ],
    100_000,
  ),
  { ...session('s-3', chunks(4))[0], streamName: streamName('team-x') } as RecordedEvent,
];

/** What the views hold of each session, the part a run of chunks moves. */
const factsOf = (state: ProjectionState) =>
  [...state.sessions.values()].map((facts) => ({ ...facts, lifecycle: { ...facts.lifecycle } }));

/** Only a run's ends, as a store whose participants fold runs from their ends hands them. */
const runEnds = (all: readonly RecordedEvent[]): RecordedEvent[] =>
  all.filter(
    (event, index) =>
      !(
        event.type === 'assistant/chunk' &&
        all[index - 1]?.type === 'assistant/chunk' &&
        all[index + 1]?.type === 'assistant/chunk' &&
        all[index - 1]?.streamName === event.streamName &&
        all[index + 1]?.streamName === event.streamName
      ),
  );

describe('the views fold a run of assistant/chunk events as one update', () => {
  const initials = [
    ['kept views', () => initialProjectionState()],
    ['views read once', () => initialOneShotProjectionState(referenceEraRules)],
  ] as const;

  it.each(initials)('leaves %s as folding each event does', (_, initial) => {
    const one = events().reduce(evolveProjection, initial());
    const batch = teamlogProjection.evolveBatch?.(initial(), events(), 0) as ProjectionState;
    expect(factsOf(batch)).toEqual(factsOf(one));
    expect([...batch.changes.sessions]).toEqual([...one.changes.sessions]);
    expect(factsOf(one).map((facts) => [facts.id, facts.eventCount, facts.lastTime])).toEqual([
      ['s-1', 38, 1_037],
      ['s-2', 6, 4_000],
    ]);
  });

  it.each(initials)('leaves %s the same from only the first and last event of each run', (_, initial) => {
    const one = events().reduce(evolveProjection, initial());
    const ends = runEnds(events());
    expect(ends.length).toBeLessThan(events().length - 20);
    const batch = teamlogProjection.evolveBatch?.(initial(), ends, 0) as ProjectionState;
    expect(factsOf(batch)).toEqual(factsOf(one));
  });

  it('folds a batch from the index it is given on', () => {
    const all = events();
    const from = 10;
    const one = all.slice(from).reduce(evolveProjection, initialProjectionState());
    const batch = teamlogProjection.evolveBatch?.(initialProjectionState(), all, from) as ProjectionState;
    expect(factsOf(batch)).toEqual(factsOf(one));
  });

  it('names assistant/chunk as the type whose runs it folds from their ends', () => {
    expect(teamlogProjection.foldsRunEndsOf).toBe('assistant/chunk');
  });
});

/** Session `s-1`'s plain events, with a header (undecodable: its fold records a problem), a revocation and a supersession among them. */
const interrupted = (): RecordedEvent[] => {
  const plain = (turn: number): readonly [string, JsonValue] => ['turn/start', { turn }];
  const all = session('s-1', [
    plain(1),
    plain(2),
    ['teamlog/import/revoked', { file: 'a.jsonl', reason: 'damaged-history', message: 'a.jsonl:line 4: gap' }],
    plain(3),
    ['teamlog/import/superseded', { file: 'a.jsonl', by: 'b.jsonl', formatVersion: 4 }],
    plain(4),
    ...chunks(3),
    plain(5),
  ]);
  const header = {
    ...(all[0] as RecordedEvent),
    streamName: streamName('sessionheader-s-1'),
    type: 'teamlog/session/header',
  };
  return [...all.slice(0, 2), header, ...all.slice(2, 7), header, ...all.slice(7)];
};

describe("the views look a session's facts up once per run of its stream's events", () => {
  it('looks them up once for a run of plain events', () => {
    const state = initialOneShotProjectionState(referenceEraRules);
    const get = jest.spyOn(state.sessions, 'get');
    const plain = session(
      's-1',
      Array.from({ length: 8 }, (_, turn): readonly [string, JsonValue] => ['turn/start', { turn }]),
    );
    teamlogProjection.evolveBatch?.(state, plain, 0);
    expect(get).toHaveBeenCalledTimes(1);
    expect(state.sessions.get('s-1' as never)?.eventCount).toBe(8);
  });

  it.each([
    ['kept views', () => initialProjectionState()],
    ['views read once', () => initialOneShotProjectionState(referenceEraRules)],
  ] as const)(
    'leaves %s as folding each event does when a header, revocation or supersession sets them anew',
    (_, initial) => {
      const one = interrupted().reduce(evolveProjection, initial());
      const batch = teamlogProjection.evolveBatch?.(initial(), interrupted(), 0) as ProjectionState;
      expect(factsOf(batch)).toEqual(factsOf(one));
      expect([...batch.changes.sessions]).toEqual([...one.changes.sessions]);
      const [facts] = factsOf(one);
      expect(facts?.problems.length).toBe(1);
      expect(facts?.superseded?.by).toBe('b.jsonl');
      expect(facts?.eventCount).toBe(5);
    },
  );
});
