import { describePostgresUrl, isPostgresUrl, redactPassword, redactPostgresUrl } from '@teamlog/store-postgres';

describe('PostgreSQL connection strings', () => {
  it('are told from file paths and other schemes', () => {
    expect(isPostgresUrl('postgres://db.example.com/teamlog')).toBe(true);
    expect(isPostgresUrl(' postgresql://u@h:5432/d')).toBe(true);
    expect(isPostgresUrl('esdb://localhost:2113')).toBe(false);
    expect(isPostgresUrl('./postgres.db')).toBe(false);
  });

  it('lose the password when printed, keeping user, host and database', () => {
    expect(redactPostgresUrl('postgres://teamlog:s3cret@db:5432/teamlog')).toBe(
      'postgres://teamlog:***@db:5432/teamlog',
    );
    expect(redactPostgresUrl('postgres://teamlog@db/teamlog')).toBe('postgres://teamlog@db/teamlog');
  });

  it('lose a password given as a query parameter too', () => {
    const url = 'postgres://teamlog@db/teamlog?sslmode=require&password=s3cr%3Dt&application_name=x';
    expect(redactPostgresUrl(url)).toBe(
      'postgres://teamlog@db/teamlog?sslmode=require&password=***&application_name=x',
    );
    expect(redactPassword('auth failed for s3cr%3Dt (s3cr=t)', url)).toBe('auth failed for *** (***)');
  });

  it('have the password removed from any text, as written and percent-decoded', () => {
    const url = 'postgres://teamlog:p%40ss%2Fword@db/teamlog';
    expect(redactPassword('failed: p%40ss%2Fword and p@ss/word', url)).toBe('failed: *** and ***');
    expect(describePostgresUrl(url)).toBe('postgres://teamlog:***@db/teamlog');
  });
});
