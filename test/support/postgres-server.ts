import { PostgresSetupFailed, startThrowawayCluster } from '@teamlog/postgres-testing';

/* The PostgreSQL server of a test run: TEAMLOG_POSTGRES_URL when set, otherwise a throwaway cluster. */

export const postgresUrlVariable = 'TEAMLOG_POSTGRES_URL';
/** Set by the global setup when no server could be had: the Postgres suites fail with this reason (they are never skipped). */
export const postgresSetupFailureVariable = 'TEAMLOG_POSTGRES_SETUP_FAILED';

export interface TestPostgresServer {
  readonly url: string;
  /** Where the URL came from, for the run's log. */
  readonly origin: string;
  readonly stop: () => Promise<void>;
}

/** The given server (left running at the end), or a throwaway cluster started here (stopped and removed by stop). */
export const startTestPostgresServer = async (log: (line: string) => void, env: NodeJS.ProcessEnv = process.env): Promise<TestPostgresServer> => {
  const given = env[postgresUrlVariable];
  if (given !== undefined && given !== '') return { url: given, origin: postgresUrlVariable, stop: async () => undefined };
  const cluster = await startThrowawayCluster({ log });
  return { url: cluster.url, origin: `a throwaway cluster in ${cluster.directory}`, stop: () => cluster.stop() };
};

/** The server URL a test file uses; throws (failing the suite, never skipping it) with the reason the global setup recorded. */
export const testPostgresUrl = (env: NodeJS.ProcessEnv = process.env): string => {
  const url = env[postgresUrlVariable];
  if (url !== undefined && url !== '') return url;
  const reason = env[postgresSetupFailureVariable];
  throw new PostgresSetupFailed('the jest global setup', reason ?? `${postgresUrlVariable} is not set and no throwaway cluster was started (run the tests through jest.config.js)`);
};
