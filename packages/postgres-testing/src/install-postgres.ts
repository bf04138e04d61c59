import { type PostgresBinaries, findPostgresBinaries } from './postgres-binaries';
import { PostgresSetupFailed } from './postgres-setup-failed';
import { runProgram, tailOf } from './run-program';

/**
 * Install Debian's `postgresql` package (a fresh CI machine has only the client). Needs root and
 * apt-get; anything else is a PostgresSetupFailed that says what could not be done.
 */
export const installPostgres = async (log: (line: string) => void): Promise<PostgresBinaries> => {
  if (process.getuid?.() !== 0) {
    throw new PostgresSetupFailed(
      'installing PostgreSQL',
      'initdb and pg_ctl are not installed, and only root can apt-get install postgresql; install it or set TEAMLOG_POSTGRES_URL',
    );
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update'], ['install', '-y', '--no-install-recommends', 'postgresql']]) {
    log(`PostgreSQL test server: apt-get ${args.join(' ')}`);
    const result = await runProgram('apt-get', args, env);
    if (result.code !== 0)
      throw new PostgresSetupFailed(
        `apt-get ${args.join(' ')}`,
        `exit ${result.code ?? 'not started'}: ${tailOf(result.output)}`,
      );
  }
  const binaries = findPostgresBinaries();
  if (binaries === undefined)
    throw new PostgresSetupFailed(
      'installing PostgreSQL',
      'apt-get installed postgresql, but no initdb and pg_ctl were found under /usr/lib/postgresql/*/bin or on PATH',
    );
  return binaries;
};

/** The installed server programs, installing Debian's package first when there are none. */
export const ensurePostgresBinaries = async (log: (line: string) => void): Promise<PostgresBinaries> =>
  findPostgresBinaries() ?? installPostgres(log);
