import type { GlobalSetupStep } from './global-setup-step';
import { postgresSetupFailureVariable, postgresUrlVariable, startTestPostgresServer } from './postgres-server';

/**
 * One PostgreSQL server for the whole run, handed to the test workers through
 * TEAMLOG_POSTGRES_URL (workers start after the global setup and inherit its environment). When
 * none can be had, the reason goes to TEAMLOG_POSTGRES_SETUP_FAILED and the Postgres suites fail
 * with it; the other suites still run.
 */
export const postgresSetupStep: GlobalSetupStep = {
  name: 'postgres',
  setUp: async (log) => {
    const given = process.env[postgresUrlVariable];
    try {
      const server = await startTestPostgresServer(log);
      process.env[postgresUrlVariable] = server.url;
      log(`postgres: tests use ${server.origin}`);
      return async () => {
        await server.stop();
        if (given === undefined) delete process.env[postgresUrlVariable];
      };
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      process.env[postgresSetupFailureVariable] = reason;
      log(`postgres: could not be set up, the PostgreSQL suites will fail: ${reason}`);
      return async () => undefined;
    }
  },
};
