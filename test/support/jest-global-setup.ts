import { browserSetupStep } from './browser-setup-step';
import type { GlobalSetupStep } from './global-setup-step';
import { postgresSetupStep } from './postgres-setup-step';

/** The run's set-up steps, in order; each one's teardown runs in reverse order at the end. */
export const globalSetupSteps: readonly GlobalSetupStep[] = [browserSetupStep, postgresSetupStep];

/** Where the teardowns wait for jest-global-teardown (both hooks run in jest's parent process). */
export const teardownsKey = Symbol.for('teamlog.jestGlobalTeardowns');

type TeardownHolder = { [teardownsKey]?: Array<{ readonly name: string; readonly tearDown: () => Promise<void> }> };

const log = (line: string): void => {
  process.stderr.write(`[global setup] ${line}\n`);
};

export default async function jestGlobalSetup(): Promise<void> {
  const teardowns: NonNullable<TeardownHolder[typeof teardownsKey]> = [];
  (globalThis as TeardownHolder)[teardownsKey] = teardowns;
  for (const step of globalSetupSteps) teardowns.push({ name: step.name, tearDown: await step.setUp(log) });
}
