import { teardownsKey } from './jest-global-setup';

type TeardownHolder = { [teardownsKey]?: Array<{ readonly name: string; readonly tearDown: () => Promise<void> }> };

export default async function jestGlobalTeardown(): Promise<void> {
  const teardowns = (globalThis as TeardownHolder)[teardownsKey] ?? [];
  for (const { name, tearDown } of [...teardowns].reverse()) {
    await tearDown().catch((error: unknown) =>
      process.stderr.write(`[global teardown] ${name}: ${error instanceof Error ? error.message : String(error)}\n`),
    );
  }
  delete (globalThis as TeardownHolder)[teardownsKey];
}
