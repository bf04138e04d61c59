import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type MessageId, type SessionId, sequentialIds } from '@teamlog/events';
import { type EventStore, type RecordedEvent, sessionStream } from '@teamlog/store';
import { SqliteEventStore } from '@teamlog/store-sqlite';
import { openEventStoreDb, redactEventStoreUrl } from '@teamlog/store-eventstoredb';
import { createTestDatabase } from '@teamlog/postgres-testing';
import { openPostgresStore } from '@teamlog/store-postgres';
import { testPostgresUrl } from '../support/postgres-server';

/* Scenario helpers: a real store per scenario (a SQLite file; a database of its own on the test
   run's PostgreSQL server; EventStoreDB when EVENTSTORE_URL is set), deterministic ids and clock,
   stream readers. */

export interface ScenarioStore {
  readonly store: EventStore;
  readonly ids: ReturnType<typeof sequentialIds>;
  readonly clock: () => Date;
  readonly cleanup: () => Promise<void>;
}

export interface ScenarioBackend {
  readonly name: string;
  /** Set when the backend cannot run here; the suite is skipped with this reason in its title. */
  readonly skipReason?: string;
  readonly open: () => Promise<ScenarioStore>;
}

const scenarioClock = (): (() => Date) => {
  let tick = Date.UTC(2026, 9, 1);
  return () => new Date((tick += 1000));
};

export const scenarioStore = async (): Promise<ScenarioStore & { readonly store: SqliteEventStore }> => {
  const directory = mkdtempSync(join(tmpdir(), 'teamlog-scenario-'));
  const store = SqliteEventStore.open(join(directory, 'team.db'));
  return {
    store,
    ids: sequentialIds('s'),
    clock: scenarioClock(),
    cleanup: async () => {
      await store.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
};

/** A fresh database per scenario, so its ids and its `$all` are its own; dropped by cleanup. */
const postgresScenario = async (): Promise<ScenarioStore> => {
  const database = await createTestDatabase(testPostgresUrl(), 'scenario');
  const store = await openPostgresStore(database.url);
  return {
    store,
    ids: sequentialIds('s'),
    clock: scenarioClock(),
    cleanup: async () => {
      await store.close();
      await database.drop();
    },
  };
};

const eventStoreUrl = process.env.EVENTSTORE_URL ?? '';
let esdbRuns = 0;

/** A shared server keeps every run's streams: ids carry the process, time and run, so runs never collide. */
const eventStoreDbScenario = async (): Promise<ScenarioStore> => {
  const store = await openEventStoreDb(eventStoreUrl);
  const prefix = `e2e-${process.pid}-${Date.now().toString(36)}-${(esdbRuns += 1)}`;
  return { store, ids: sequentialIds(prefix), clock: scenarioClock(), cleanup: () => store.close() };
};

export const scenarioBackends: readonly ScenarioBackend[] = [
  { name: 'SQLite', open: scenarioStore },
  // Always run: the test run starts its own PostgreSQL server (test/support), and fails this suite if it cannot.
  { name: 'PostgreSQL', open: postgresScenario },
  eventStoreUrl === ''
    ? {
        name: 'EventStoreDB',
        skipReason: 'skipped: EVENTSTORE_URL is not set (for example esdb://localhost:2113?tls=false)',
        open: eventStoreDbScenario,
      }
    : { name: `EventStoreDB at ${redactEventStoreUrl(eventStoreUrl)}`, open: eventStoreDbScenario },
];

/**
 * `describe` for a backend that can run; otherwise `describe.skip`, gated by the backend's
 * condition (EventStoreDB needs EVENTSTORE_URL, since no server can run on the CI machines), with
 * the reason in the title so CI's skipped-suite lines say why.
 */
export const describeOn = (backend: ScenarioBackend, title: string, body: () => void): void =>
  backend.skipReason === undefined
    ? describe(`${title} on ${backend.name}`, body)
    : // Skipped only where the backend cannot run (EventStoreDB without EVENTSTORE_URL); the title says why.
      describe.skip(`${title} on ${backend.name} (${backend.skipReason})`, body);

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
