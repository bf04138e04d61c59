import { relative, resolve, sep } from 'node:path';
import type { SessionId } from '@teamlog/events';
import type { EventStore } from '@teamlog/store';
import { type ImportReport, importSessionLogs } from '@teamlog/dsh';

export const syntheticFixtures = resolve(__dirname, '../../../fixtures/synthetic');
export const realFixtures = resolve(__dirname, '../../../fixtures/dsh-logs');

export interface ImportedFixtures {
  readonly report: ImportReport;
  /** The scenario (first directory under the root) of each imported session. */
  readonly scenarioOf: ReadonlyMap<SessionId, string>;
}

/** Import a fixture tree through the historical-log importer, as `teamlog replay` does. */
export const importFixtures = async (store: EventStore, root: string): Promise<ImportedFixtures> => {
  const report = await importSessionLogs(root, store);
  const scenarioOf = new Map<SessionId, string>();
  for (const file of report.files) {
    if (file.streamSessionId !== undefined && file.rejected === undefined) {
      scenarioOf.set(file.streamSessionId, relative(root, file.file).split(sep)[0] as string);
    }
  }
  return { report, scenarioOf };
};
