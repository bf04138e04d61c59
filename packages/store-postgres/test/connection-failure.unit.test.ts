import { isConnectionFailure } from '@teamlog/store-postgres';

const withCode = (code: string, message = 'failed'): Error => Object.assign(new Error(message), { code });

describe('errors that mean the connection or the server went away', () => {
  it('include refused and reset sockets, connection SQLSTATEs, shutdowns and a whole-transaction rollback', () => {
    for (const code of ['ECONNREFUSED', 'ECONNRESET', '08006', '08001', '57P01', '57P03', '40P01', '40001'])
      expect(isConnectionFailure(withCode(code))).toBe(true);
    expect(isConnectionFailure(new Error('Connection terminated unexpectedly'))).toBe(true);
  });

  it('exclude constraint, syntax and permission errors', () => {
    for (const code of ['23505', '42601', '42501', '42P01']) expect(isConnectionFailure(withCode(code))).toBe(false);
    expect(isConnectionFailure('not an error')).toBe(false);
  });
});
