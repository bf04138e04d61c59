import { candidateDirectories, findPostgresBinaries, newestFirst } from '@teamlog/postgres-testing';

describe('finding the PostgreSQL server programs', () => {
  it("looks in Debian's version directories, newest first, before PATH", () => {
    expect(newestFirst(['9.6', '15', 'common', '16'])).toEqual(['16', '15', '9.6']);
    expect(candidateDirectories(['15', '16'], '/usr/local/bin:/usr/bin')).toEqual([
      '/usr/lib/postgresql/16/bin',
      '/usr/lib/postgresql/15/bin',
      '/usr/local/bin',
      '/usr/bin',
    ]);
  });

  it('takes the first directory that has both initdb and pg_ctl', () => {
    const present = new Set([
      '/usr/lib/postgresql/16/bin/pg_ctl',
      '/usr/lib/postgresql/15/bin/initdb',
      '/usr/lib/postgresql/15/bin/pg_ctl',
    ]);
    expect(findPostgresBinaries((file) => present.has(file), ['15', '16'], '')).toEqual({
      directory: '/usr/lib/postgresql/15/bin',
      initdb: '/usr/lib/postgresql/15/bin/initdb',
      pgCtl: '/usr/lib/postgresql/15/bin/pg_ctl',
    });
  });

  it("finds nothing when no directory has them (the caller installs Debian's package)", () => {
    expect(findPostgresBinaries(() => false, ['15'], '/usr/bin')).toBeUndefined();
  });
});
