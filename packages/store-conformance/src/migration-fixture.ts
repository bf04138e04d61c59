import { v4 as uuidv4 } from 'uuid';
import type { EventId, JsonValue } from '@teamlog/events';
import {
  type AppendOptions,
  type AppendResult,
  type EventStore,
  type EventToAppend,
  type StreamName,
  isMigrationError,
  migrateStore,
  streamName,
} from '@teamlog/store';

/* Shared by the migration tests of every store: a varied source, a comparison, and a target that can fail on cue. */

let run = 0;
const prefix = () => `${process.pid}-${Date.now().toString(36)}-${(run += 1)}`;

const variedEvent = (stream: number, n: number): EventToAppend => {
  const id = uuidv4() as EventId;
  const shapes: Array<{ data: JsonValue; metadata?: JsonValue }> = [
    {
      data: { text: `héllo ✓ 𝄞 ${n}`, nested: { list: [1, 2.5, null, true] } },
      metadata: { time: 1_700_000_000_000 + n },
    },
    {
      data: { n },
      metadata: { time: n, causationId: uuidv4(), correlationId: uuidv4(), writerSessionId: `writer-${stream}` },
    },
    { data: { n } },
    { data: n, metadata: [n, 'array metadata'] },
    { data: `a plain string ${n}`, metadata: { time: n, $custom: 'dollar key' } },
  ];
  const shape = shapes[(stream + n) % shapes.length] as { data: JsonValue; metadata?: JsonValue };
  return { id, type: `test/kind-${n % 3}`, ...shape };
};

/** `streams` streams whose appends interleave in $all, each with `perStream` events in batches of 1-3. */
export const fillSource = async (store: EventStore, streams = 6, perStream = 9): Promise<StreamName[]> => {
  const base = prefix();
  const names = Array.from({ length: streams }, (_, index) => streamName(`session-${base}-${index}`));
  const written = names.map(() => 0);
  for (let round = 0; written.some((count) => count < perStream); round += 1) {
    for (const [index, name] of names.entries()) {
      const size = Math.min(perStream - (written[index] as number), 1 + ((round + index) % 3));
      if (size <= 0) continue;
      const batch = Array.from({ length: size }, (_, offset) =>
        variedEvent(index, (written[index] as number) + offset),
      );
      await store.appendToStream(name, batch);
      written[index] = (written[index] as number) + size;
    }
  }
  return names;
};

const comparable = async (store: EventStore, stream: StreamName) => {
  const out: Array<{ revision: bigint; id: string; type: string; data: JsonValue; metadata: JsonValue | undefined }> =
    [];
  for await (const event of store.readStream(stream)) {
    out.push({
      revision: event.revision,
      id: event.id.toLowerCase(),
      type: event.type,
      data: event.data,
      metadata: event.metadata,
    });
  }
  return out;
};

/** Every event of every stream: same revision, id, type, data and metadata. */
export const expectSameStreams = async (
  source: EventStore,
  target: EventStore,
  streams: readonly StreamName[],
): Promise<void> => {
  for (const stream of streams) {
    expect(await comparable(target, stream)).toEqual(await comparable(source, stream));
  }
};

/**
 * A target that delegates to a real store, counts appends, and can lose the reply of one append
 * after it was written (the outcome a dropped connection leaves behind).
 */
/** A migration stopped (as a process dying would) once it has seen `streams` streams: the MigrationInterrupted it ends with. */
export const migrationStoppedAfter = async (
  from: EventStore,
  to: EventStore,
  streams: number,
  maxBatchEvents?: number,
): Promise<{ readonly eventsCopied: number }> => {
  const stop = new AbortController();
  const interrupted = await migrateStore({
    from,
    to,
    signal: stop.signal,
    ...(maxBatchEvents === undefined ? {} : { maxBatchEvents }),
    onProgress: (progress) => {
      if (progress.streamsSeen >= streams) stop.abort();
    },
  }).catch((error: unknown) => error);
  if (!isMigrationError(interrupted, 'MigrationInterrupted'))
    throw new Error(`expected an interrupted migration, got ${String(interrupted)}`);
  return interrupted.fault;
};

export class FlakyTarget implements EventStore {
  readonly appendSizes: number[] = [];
  readonly expectedRevisions: Array<AppendOptions['expectedRevision']> = [];
  loseReplyOfAppend: number | undefined;

  constructor(private readonly inner: EventStore) {}

  async appendToStream(
    stream: StreamName,
    events: readonly EventToAppend[],
    options?: AppendOptions,
  ): Promise<AppendResult> {
    const result = await this.inner.appendToStream(stream, events, options);
    this.appendSizes.push(events.length);
    this.expectedRevisions.push(options?.expectedRevision);
    if (this.appendSizes.length === this.loseReplyOfAppend)
      throw new Error('connection lost after the append was written');
    return result;
  }

  stageAppends: EventStore['stageAppends'] = (options) => this.inner.stageAppends(options);
  readStream: EventStore['readStream'] = (stream, options) => this.inner.readStream(stream, options);
  readAll: EventStore['readAll'] = (options) => this.inner.readAll(options);
  subscribeToAll: EventStore['subscribeToAll'] = (options) => this.inner.subscribeToAll(options);
  streamRevision: EventStore['streamRevision'] = (stream) => this.inner.streamRevision(stream);
  knownRevision: EventStore['knownRevision'] = (stream) => this.inner.knownRevision(stream);
  get knownRevisionCovers(): EventStore['knownRevisionCovers'] {
    return this.inner.knownRevisionCovers;
  }
  close: EventStore['close'] = () => this.inner.close();
}
