import { freeLoopbackPort } from '@teamlog/postgres-testing';
import { StoreError } from '@teamlog/store';
import { openPostgresStore } from '@teamlog/store-postgres';

describe('openPostgresStore on a port nothing listens on', () => {
  it('retries the connection with the policy, logging each retry without the password, then fails as an unavailable store', async () => {
    const url = `postgres://teamlog:secret@127.0.0.1:${await freeLoopbackPort()}/teamlog`;
    const log: string[] = [];
    const opening = openPostgresStore(url, {
      retry: { initialDelayMs: 1, maxDelayMs: 5, maxAttempts: 3 },
      log: (line) => log.push(line),
    });
    await expect(opening).rejects.toBeInstanceOf(StoreError);
    await expect(opening).rejects.toMatchObject({
      code: 'StoreFailure',
      fault: { failure: 'unavailable', operation: 'open', serverCode: 'ECONNREFUSED' },
    });
    expect(log).toEqual([
      expect.stringMatching(
        /^teamlog postgres: cannot connect to postgres:\/\/teamlog:\*\*\*@127\.0\.0\.1:\d+\/teamlog \(.*ECONNREFUSED.*\); retry 1 in \d+ ms$/,
      ),
      expect.stringMatching(/retry 2 in \d+ ms$/),
    ]);
    expect(log.join('\n')).not.toContain('secret');
  });
});
