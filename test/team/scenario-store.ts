import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MessageId, SessionId, sequentialIds } from '@teamlog/events';
import { EventStore, RecordedEvent, sessionStream } from '@teamlog/store';
import { SqliteEventStore } from '@teamlog/store-sqlite';

/* Scenario helpers: a real SQLite file per scenario, deterministic ids and clock, stream readers. */

export interface ScenarioStore {
  readonly store: SqliteEventStore;
  readonly file: string;
  readonly ids: ReturnType<typeof sequentialIds>;
  readonly clock: () => Date;
  readonly cleanup: () => Promise<void>;
}

export const scenarioStore = (): ScenarioStore => {
  const directory = mkdtempSync(join(tmpdir(), 'teamlog-scenario-'));
  const file = join(directory, 'team.db');
  const store = SqliteEventStore.open(file);
  let tick = Date.UTC(2026, 9, 1);
  return {
    store,
    file,
    ids: sequentialIds('s'),
    clock: () => new Date((tick += 1000)),
    cleanup: async () => {
      await store.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
};

export const streamOf = async (store: EventStore, session: SessionId): Promise<RecordedEvent[]> => {
  const events: RecordedEvent[] = [];
  for await (const event of store.readStream(sessionStream(session))) events.push(event);
  return events;
};

/** The revision of the first event matching, or -1. */
export const revisionOf = (events: readonly RecordedEvent[], match: (event: RecordedEvent) => boolean): number => {
  const found = events.find(match);
  return found === undefined ? -1 : Number(found.revision);
};

export const isAcceptanceOf = (id: MessageId) => (event: RecordedEvent) =>
  event.type === 'teamlog/inbox/accepted' && (event.data as { message: { id: string } }).message.id === id;
export const isConversationCopyOf = (id: MessageId) => (event: RecordedEvent) =>
  event.type === 'user/message' && (event.data as { id: string }).id === id;
