import { type GlobalPosition, formatPosition } from '@teamlog/store';

/** Writing a batch of views with its checkpoint failed; nothing of the batch was kept. */
export class ProjectionCommitFailed extends Error {
  override readonly name = 'ProjectionCommitFailed';
  constructor(
    readonly projection: string,
    readonly position: GlobalPosition,
    override readonly cause: unknown,
  ) {
    super(
      `projection ${projection}: committing the views up to ${formatPosition(position)} failed: ${cause instanceof Error ? cause.message : String(cause)}`,
    );
  }
}

/** A catch-up, rebuild or live run was asked for while another one is in progress. */
export class ProjectionBusy extends Error {
  override readonly name = 'ProjectionBusy';
  constructor(
    readonly projection: string,
    readonly activity: string,
  ) {
    super(`projection ${projection} is already ${activity}`);
  }
}

/** The live run stopped on an error; waiting for a position cannot succeed. */
export class ProjectionStopped extends Error {
  override readonly name = 'ProjectionStopped';
  constructor(
    readonly projection: string,
    override readonly cause?: unknown,
  ) {
    super(`projection ${projection} stopped${cause instanceof Error ? `: ${cause.message}` : ''}`);
  }
}

/** A persisted view row does not decode: names the file, table, row and field path. */
export class CorruptViewRow extends Error {
  override readonly name = 'CorruptViewRow';
  constructor(
    readonly file: string,
    readonly table: string,
    readonly row: string,
    readonly detail: string,
  ) {
    super(`${file}: table ${table}, row ${row}: ${detail}; rebuild the projection to recreate it`);
  }
}

/**
 * Another runner (another process) committed these views since this one loaded them. The runner
 * takes the views as they now are and carries on from their checkpoint.
 */
export class ViewsChangedElsewhere extends Error {
  override readonly name = 'ViewsChangedElsewhere';
  constructor(
    readonly projection: string,
    readonly expected: string,
    readonly found: string,
  ) {
    super(`projection ${projection}: the views were committed elsewhere (checkpoint ${found}, expected ${expected})`);
  }
}

/** The views were read before the runner loaded them (await `load`, `catchUp` or `TeamlogProjections.open`). */
export class ProjectionNotLoaded extends Error {
  override readonly name = 'ProjectionNotLoaded';
  constructor(readonly projection: string) {
    super(`projection ${projection}: the views are not loaded yet`);
  }
}
