import type {
  AppendOptions,
  AppendResult,
  EventStore,
  EventToAppend,
  KnownRevision,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
  StageAppendsOptions,
  StagedAppends,
  StreamName,
  SubscribeToAllOptions,
  Subscription,
} from '@teamlog/store';

export type AppendHook = (
  stream: StreamName,
  events: readonly EventToAppend[],
  options: AppendOptions,
) => Promise<void> | void;

/**
 * A real store with hooks around append, to stage what another writer does at an exact moment
 * (a concurrent append, a slow disk, a failing stream). Everything else is the inner store.
 */
export class HookedStore implements EventStore {
  before: AppendHook = () => undefined;
  after: AppendHook = () => undefined;

  constructor(readonly inner: EventStore) {}

  async appendToStream(
    stream: StreamName,
    events: readonly EventToAppend[],
    options: AppendOptions = {},
  ): Promise<AppendResult> {
    await this.before(stream, events, options);
    const result = await this.inner.appendToStream(stream, events, options);
    await this.after(stream, events, options);
    return result;
  }

  stageAppends(options?: StageAppendsOptions): StagedAppends {
    return this.inner.stageAppends(options);
  }

  readStream(stream: StreamName, options?: ReadStreamOptions): AsyncIterable<RecordedEvent> {
    return this.inner.readStream(stream, options);
  }

  readAll(options?: ReadAllOptions): AsyncIterable<RecordedEvent> {
    return this.inner.readAll(options);
  }

  subscribeToAll(options?: SubscribeToAllOptions): Subscription {
    return this.inner.subscribeToAll(options);
  }

  streamRevision(stream: StreamName): Promise<bigint | undefined> {
    return this.inner.streamRevision(stream);
  }

  get knownRevisionCovers(): EventStore['knownRevisionCovers'] {
    return this.inner.knownRevisionCovers;
  }

  knownRevision(stream: StreamName): KnownRevision | undefined {
    return this.inner.knownRevision(stream);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

/** A promise with its resolver, to hold an append open until the test lets it go. */
export const latch = (): { readonly opened: Promise<void>; readonly open: () => void } => {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
};
