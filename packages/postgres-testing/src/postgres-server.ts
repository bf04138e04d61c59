import { startThrowawayCluster } from './throwaway-cluster';

/** The variable naming a PostgreSQL server to use instead of starting one. */
export const postgresUrlVariable = 'TEAMLOG_POSTGRES_URL';

export interface PostgresServer {
  readonly url: string;
  /** Where the URL came from, for a log line. */
  readonly origin: string;
  /** Stops and removes a throwaway cluster; leaves a given server alone. */
  readonly stop: () => Promise<void>;
}

/** TEAMLOG_POSTGRES_URL when set, otherwise a throwaway cluster started here. */
export const startPostgresServer = async (
  log: (line: string) => void,
  env: NodeJS.ProcessEnv = process.env,
): Promise<PostgresServer> => {
  const given = env[postgresUrlVariable];
  if (given !== undefined && given !== '')
    return { url: given, origin: postgresUrlVariable, stop: async () => undefined };
  const cluster = await startThrowawayCluster({ log });
  return { url: cluster.url, origin: `a throwaway cluster in ${cluster.directory}`, stop: () => cluster.stop() };
};
