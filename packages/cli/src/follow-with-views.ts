import { promises as fs } from 'node:fs';
import { type FollowBatch, type FollowMode, type SessionLogFollower, followSessionLogs } from '@teamlog/dsh';
import { type GlobalPosition, formatPosition } from '@teamlog/store';
import { badInput } from './cli-errors';
import type { OpenedStore } from './open-teamlog-store';

/** A batch as the CLI reports it: with the position the store's views reached after it. */
export interface ReportedBatch {
  readonly batch: FollowBatch;
  /** `commit/prepare` of the views' checkpoint, null while the store is empty. */
  readonly position: string | null;
}

export interface FollowWithViewsOptions {
  /** Poll every this many ms instead of watching. */
  readonly pollMs?: number;
  readonly onBatch: (reported: ReportedBatch) => void;
}

const positionOf = (checkpoint: GlobalPosition | undefined): string | null =>
  checkpoint === undefined ? null : formatPosition(checkpoint);

/**
 * Follow the session logs under `root` into an open store, its views moving with every batch:
 * caught up before it, folded inline while it appends (in the same transaction on SQLite, so
 * another reader of the file sees views and events move together), caught up after it (what
 * another process appended, or a store that cannot fold inline). Nothing is read back.
 */
export const followWithViews = async (
  opened: OpenedStore,
  root: string,
  options: FollowWithViewsOptions,
): Promise<SessionLogFollower> => {
  try {
    await fs.stat(root);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw badInput(code === 'ENOENT' ? 'no such file or directory' : `cannot read: ${(error as Error).message}`, {
      file: root,
    });
  }
  const projections = await opened.projections();
  return followSessionLogs(root, opened.store, {
    ...(options.pollMs === undefined ? {} : { poll: true, pollMs: options.pollMs }),
    ...(opened.singlePassBytes === undefined ? {} : { singlePassBytes: opened.singlePassBytes }),
    runBatch: async (work) => {
      await projections.catchUp();
      const detach = projections.foldInline();
      try {
        return await work();
      } finally {
        detach?.();
        await projections.catchUp();
      }
    },
    // Called once runBatch settled: the views hold the batch.
    onBatch: (batch) => {
      options.onBatch({ batch, position: positionOf(projections.checkpoint) });
    },
  });
};

export const describeFollowMode = (mode: FollowMode): string =>
  mode.kind === 'watch'
    ? `watching ${mode.directories} ${mode.directories === 1 ? 'directory' : 'directories'} (fs.watch)`
    : `polling every ${mode.intervalMs} ms${mode.reason === undefined ? '' : ` (${mode.reason})`}`;

/** One line for a person: what a batch imported, and where the views are. */
export const batchLine = ({ batch, position }: ReportedBatch): string => {
  const what = `${batch.files} ${batch.files === 1 ? 'file' : 'files'}, ${batch.appended} ${batch.appended === 1 ? 'event' : 'events'}`;
  return `${batch.number === 0 ? 'imported' : `batch ${batch.number}`}: ${what}, views at ${position ?? 'the start (empty store)'}`;
};

/** The same as one JSON line (`--json`). */
export const batchJson = ({ batch, position }: ReportedBatch): Readonly<Record<string, unknown>> => ({
  batch: batch.number,
  files: batch.files,
  events: batch.appended,
  position,
  changes: batch.changes.map((change) => ({
    file: change.file,
    sessionId: change.streamSessionId ?? null,
    appended: change.appended,
    ...(change.header ? { newGeneration: true } : {}),
    ...(change.warning === undefined ? {} : { warning: change.warning }),
  })),
  warnings: batch.warnings,
});
