import { type GlobalPosition, formatPosition } from '@teamlog/store';

/* The one error of the projections: a ProjectionError carries a fault whose `code` says what failed. */

export type ProjectionFault =
  /** Writing a batch of views with its checkpoint failed; nothing of the batch was kept. */
  | {
      readonly code: 'ProjectionCommitFailed';
      readonly projection: string;
      readonly position: GlobalPosition;
      readonly cause: unknown;
    }
  /** A catch-up, rebuild or live run was asked for while another one is in progress. */
  | { readonly code: 'ProjectionBusy'; readonly projection: string; readonly activity: string }
  /** The live run stopped on an error; waiting for a position cannot succeed. */
  | { readonly code: 'ProjectionStopped'; readonly projection: string; readonly cause?: unknown }
  /** A persisted view row does not decode: names the file, table, row and field path. */
  | {
      readonly code: 'CorruptViewRow';
      readonly file: string;
      readonly table: string;
      readonly row: string;
      readonly detail: string;
    }
  /**
   * Another runner (another process) committed these views since this one loaded them. The runner
   * takes the views as they now are and carries on from their checkpoint.
   */
  | {
      readonly code: 'ViewsChangedElsewhere';
      readonly projection: string;
      readonly expected: string;
      readonly found: string;
    }
  /** The views were read before the runner loaded them (await `load`, `catchUp` or `TeamlogProjections.open`). */
  | { readonly code: 'ProjectionNotLoaded'; readonly projection: string }
  /** The lead was lost with its connection and, by the time the server was back, another runner had taken it. */
  | { readonly code: 'ProjectionLeadTaken'; readonly projection: string };

export type ProjectionErrorCode = ProjectionFault['code'];

const causeText = (cause: unknown): string => (cause instanceof Error ? cause.message : String(cause));

export const describeProjectionFault = (fault: ProjectionFault): string => {
  switch (fault.code) {
    case 'ProjectionCommitFailed':
      return `projection ${fault.projection}: committing the views up to ${formatPosition(fault.position)} failed: ${causeText(fault.cause)}`;
    case 'ProjectionBusy':
      return `projection ${fault.projection} is already ${fault.activity}`;
    case 'ProjectionStopped':
      return `projection ${fault.projection} stopped${fault.cause instanceof Error ? `: ${fault.cause.message}` : ''}`;
    case 'CorruptViewRow':
      return `${fault.file}: table ${fault.table}, row ${fault.row}: ${fault.detail}; rebuild the projection to recreate it`;
    case 'ViewsChangedElsewhere':
      return `projection ${fault.projection}: the views were committed elsewhere (checkpoint ${fault.found}, expected ${fault.expected})`;
    case 'ProjectionNotLoaded':
      return `projection ${fault.projection}: the views are not loaded yet`;
    case 'ProjectionLeadTaken':
      return `projection ${fault.projection}: the lead was lost with its connection and another runner holds it now; run the command again`;
    default: {
      const unreachable: never = fault;
      return unreachable;
    }
  }
};

export class ProjectionError<F extends ProjectionFault = ProjectionFault> extends Error {
  override readonly name = 'ProjectionError';
  readonly code: F['code'];
  constructor(readonly fault: F) {
    super(describeProjectionFault(fault), 'cause' in fault ? { cause: fault.cause } : undefined);
    this.code = fault.code;
  }
}

/** Narrow an unknown error to a ProjectionError, of the given codes when any are named. */
export const isProjectionError = <C extends ProjectionErrorCode>(
  error: unknown,
  ...codes: readonly C[]
): error is ProjectionError<Extract<ProjectionFault, { readonly code: C }>> =>
  error instanceof ProjectionError && (codes.length === 0 || (codes as readonly string[]).includes(error.code));
