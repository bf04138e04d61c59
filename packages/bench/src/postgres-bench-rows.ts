import { randomUUID } from 'node:crypto';
import type { EventId, JsonValue } from '@teamlog/events';

/* The rows every Postgres append measurement writes, so the store, the raw INSERTs and Emmett store the same things. */

export interface BenchAppend {
  readonly stream: string;
  /** The stream's revision this append takes (dense from 0 per writer). */
  readonly revision: number;
  readonly id: EventId;
  readonly type: string;
  readonly data: JsonValue;
  readonly metadata: JsonValue;
}

/** One single-event append, shaped like an accepted team message. */
const appendOf = (writer: number, revision: number): BenchAppend => ({
  stream: `bench-writer-${writer}`,
  revision,
  id: randomUUID() as EventId,
  type: 'teamlog/inbox/accepted',
  data: {
    message: {
      id: randomUUID(),
      text: `benchmark note ${revision} from writer ${writer}: please review the parser patch and report failing tests`,
    },
    source: { kind: 'team-relay', form: 'relay', senderName: `writer-${writer}` },
  },
  metadata: { time: 1_760_000_000_000 + revision, writerSessionId: `writer-${writer}` },
});

/** Writer `w`'s share of `appends` in all (split evenly, the first writers taking the remainder), in order. */
export const appendsOfWriter = (writer: number, writers: number, appends: number): BenchAppend[] => {
  const share = Math.floor(appends / writers) + (writer < appends % writers ? 1 : 0);
  return Array.from({ length: share }, (_, revision) => appendOf(writer, revision));
};

/** Run every writer's appends concurrently, each awaiting its previous one; resolves with how many were written. */
export const runWriters = async (
  writers: number,
  appends: number,
  write: (append: BenchAppend) => Promise<void>,
): Promise<number> => {
  const loops = Array.from({ length: writers }, async (_, writer) => {
    const mine = appendsOfWriter(writer, writers, appends);
    for (const append of mine) await write(append);
    return mine.length;
  });
  return (await Promise.all(loops)).reduce((sum, count) => sum + count, 0);
};
