import { CodedError, type MessageTable, codedErrorGuard, describeFault } from '@teamlog/events';
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

const projectionMessages: MessageTable<ProjectionFault> = {
  ProjectionCommitFailed: ({ projection, position, cause }) =>
    `projection ${projection}: committing the views up to ${formatPosition(position)} failed: ${causeText(cause)}`,
  ProjectionBusy: ({ projection, activity }) => `projection ${projection} is already ${activity}`,
  ProjectionStopped: ({ projection, cause }) =>
    `projection ${projection} stopped${cause instanceof Error ? `: ${cause.message}` : ''}`,
  CorruptViewRow: ({ file, table, row, detail }) =>
    `${file}: table ${table}, row ${row}: ${detail}; rebuild the projection to recreate it`,
  ViewsChangedElsewhere: ({ projection, found, expected }) =>
    `projection ${projection}: the views were committed elsewhere (checkpoint ${found}, expected ${expected})`,
  ProjectionNotLoaded: ({ projection }) => `projection ${projection}: the views are not loaded yet`,
  ProjectionLeadTaken: ({ projection }) =>
    `projection ${projection}: the lead was lost with its connection and another runner holds it now; run the command again`,
};

export const describeProjectionFault = describeFault(projectionMessages);

export class ProjectionError<F extends ProjectionFault = ProjectionFault> extends CodedError<F> {
  override readonly name = 'ProjectionError';
  constructor(fault: F) {
    super(fault, describeProjectionFault(fault));
  }
}

/** Narrow an unknown error to a ProjectionError, of the given codes when any are named. */
export const isProjectionError = codedErrorGuard<ProjectionFault, ProjectionError>(ProjectionError);
