import type { PoolClient } from 'pg';
import type { EventId } from '@teamlog/events';
import { retrying, streamName } from '@teamlog/store';
import { isConnectionFailure, postgresStagedAppends } from '@teamlog/store-postgres';

/* A unit's commit that a dropped connection interrupted is sent again whole, on a new connection. */

interface FakeConnection {
  readonly statements: string[];
  readonly released: Array<boolean | undefined>;
}

const appendedRow = { outcome: 'appended', last_revision: '0', transaction_id: '42', last_position: '1', stored: null };

/** Connections whose first statement fails `failures` times, as a server restart does. */
const fakeConnections = (failures: number) => {
  const connections: FakeConnection[] = [];
  let failed = 0;
  const connect = async (): Promise<PoolClient> => {
    const connection: FakeConnection = { statements: [], released: [] };
    connections.push(connection);
    const client = {
      query: async (sql: string) => {
        connection.statements.push(sql.startsWith('SELECT outcome') ? 'append_group' : sql);
        if (failed < failures) {
          failed += 1;
          throw new Error('Connection terminated unexpectedly');
        }
        return { rows: sql.startsWith('SELECT outcome') ? [appendedRow] : [] };
      },
      release: (destroy?: boolean) => void connection.released.push(destroy),
    };
    return client as unknown as PoolClient;
  };
  return { connections, connect };
};

const unitOn = (connect: () => Promise<PoolClient>, maxAttempts: number, committed: bigint[]) =>
  postgresStagedAppends({
    connect,
    retry: (run) =>
      retrying(run, {
        policy: { initialDelayMs: 1, maxDelayMs: 1, maxAttempts },
        retryable: isConnectionFailure,
        sleep: async () => undefined,
      }),
    clock: () => new Date(Date.UTC(2026, 0, 1)),
    assertOpen: () => undefined,
    maxStagedBytes: 1024 * 1024,
    committed: (transaction) => void committed.push(transaction),
    failure: (_operation, error) => error,
  });

const event = { id: '018f0000-0000-7000-8000-000000000001' as EventId, type: 'x/test', data: { n: 1 } };

describe('a unit of staged appends on PostgreSQL, when the connection drops', () => {
  it('given a connection that drops under the commit, then the whole transaction is sent again on a new connection, and the broken one is not pooled again', async () => {
    const { connections, connect } = fakeConnections(1);
    const committed: bigint[] = [];
    const unit = unitOn(connect, 5, committed);
    await unit.append(streamName('session-a'), [event], { expectedRevision: 'no_stream' });
    const results = await unit.commit();
    expect(results).toEqual([
      expect.objectContaining({ streamName: 'session-a', events: 1, nextExpectedRevision: 0n }),
    ]);
    expect(connections).toEqual([
      { statements: ['BEGIN'], released: [true] },
      { statements: ['BEGIN', 'append_group', 'COMMIT'], released: [false] },
    ]);
    expect(committed).toEqual([42n]);
  });

  it("given a server that stays away, then the last failure is thrown after the policy's attempts, and nothing is reported committed", async () => {
    const { connections, connect } = fakeConnections(Number.POSITIVE_INFINITY);
    const committed: bigint[] = [];
    const unit = unitOn(connect, 3, committed);
    await unit.append(streamName('session-a'), [event], { expectedRevision: 'no_stream' });
    await expect(unit.commit()).rejects.toThrow('Connection terminated unexpectedly');
    expect(connections).toHaveLength(3);
    expect(committed).toEqual([]);
  });
});
