import { join } from 'node:path';
import { type EventStore, InMemoryEventStore, type StagedAppends, storeFailure } from '@teamlog/store';
import { realLogsRoot } from './real-logs';
import { importSessionLog } from '../src';

/* A store that failed (its server stayed away) is not a bad file: the import stops, nothing of the file is written, and a rerun imports it. */

const baseline = join(realLogsRoot, 'index-1394225561/snapshots/session/team-direct-inbox/session.v4.jsonl');

const unavailable = storeFailure(
  'append on postgres://teamlog:***@db/teamlog failed: connect ECONNREFUSED 127.0.0.1:5432',
);

/** The store with every commit of a unit failing as a server that stays away does. */
const failingCommits = (inner: InMemoryEventStore): EventStore =>
  Object.create(inner, {
    stageAppends: {
      value: (): StagedAppends => {
        const unit = inner.stageAppends();
        return {
          append: (...args: Parameters<StagedAppends['append']>) => unit.append(...args),
          commit: async () => {
            await unit.abort();
            throw unavailable;
          },
          abort: () => unit.abort(),
        };
      },
    },
  }) as EventStore;

describe('importSessionLog when the store fails', () => {
  it("throws the store's failure instead of listing the file as rejected, writes nothing, and a rerun imports the file", async () => {
    const store = new InMemoryEventStore();
    await expect(importSessionLog(baseline, failingCommits(store))).rejects.toBe(unavailable);
    const written: unknown[] = [];
    for await (const event of store.readAll()) written.push(event);
    expect(written).toEqual([]);
    const rerun = await importSessionLog(baseline, store);
    expect({ rejected: rerun.rejected, appended: rerun.appended > 0 }).toEqual({ rejected: undefined, appended: true });
  });
});
