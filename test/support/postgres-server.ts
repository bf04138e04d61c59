import { PostgresSetupFailed, postgresUrlVariable, startPostgresServer } from '@teamlog/postgres-testing';

/* The PostgreSQL server of a test run: TEAMLOG_POSTGRES_URL when set, otherwise a throwaway cluster
   (the start and stop logic lives in @teamlog/postgres-testing, which the bench uses too). */

export { postgresUrlVariable };
export const startTestPostgresServer = startPostgresServer;

/** Set by the global setup when no server could be had: the Postgres suites fail with this reason (they are never skipped). */
export const postgresSetupFailureVariable = 'TEAMLOG_POSTGRES_SETUP_FAILED';

/** The server URL a test file uses; throws (failing the suite, never skipping it) with the reason the global setup recorded. */
export const testPostgresUrl = (env: NodeJS.ProcessEnv = process.env): string => {
  const url = env[postgresUrlVariable];
  if (url !== undefined && url !== '') return url;
  const reason = env[postgresSetupFailureVariable];
  throw new PostgresSetupFailed(
    'the jest global setup',
    reason ??
      `${postgresUrlVariable} is not set and no throwaway cluster was started (run the tests through jest.config.js)`,
  );
};
