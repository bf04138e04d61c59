import { storeRetryNotice } from '../src/store-retry-notice';

describe('storeRetryNotice', () => {
  it('shows the first retry of each operation once, and nothing else the store logs', () => {
    const written: string[] = [];
    const log = storeRetryNotice((text) => written.push(text));
    log(
      'teamlog postgres: append on postgres://u:***@h/db failed (Connection terminated unexpectedly); retry 1 in 40 ms',
    );
    log(
      'teamlog postgres: append on postgres://u:***@h/db failed (connect ECONNREFUSED 127.0.0.1:5); retry 2 in 90 ms',
    );
    log(
      'teamlog postgres: a connection to postgres://u:***@h/db failed: terminating connection due to administrator command',
    );
    log('teamlog postgres: the LISTEN connection ended (closed); reconnecting in 55 ms');
    log('teamlog postgres: the LISTEN connection ended (closed); reconnecting in 120 ms');
    expect(written).toEqual([
      'teamlog postgres: append on postgres://u:***@h/db failed (Connection terminated unexpectedly); retry 1 in 40 ms (later retries are not shown)\n',
      'teamlog postgres: the LISTEN connection ended (closed); reconnecting in 55 ms (later retries are not shown)\n',
    ]);
  });
});
