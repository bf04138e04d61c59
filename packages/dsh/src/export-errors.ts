import { CodedError, type MessageTable, codedErrorGuard, describeFault } from '@teamlog/events';

/* The one error of an export: an ExportError's fault says whether the session or the target is refused; nothing was written. */

export type ExportFault =
  /** The stored session cannot be written back as a log: no header, or an event that does not decode. */
  | { readonly code: 'SessionNotExportable'; readonly sessionId: string; readonly detail: string }
  /** The target of an export is not a place to write a log file: nothing was written. */
  | { readonly code: 'ExportTargetRefused'; readonly file: string; readonly detail: string };

const exportMessages: MessageTable<ExportFault> = {
  SessionNotExportable: ({ sessionId, detail }) => `session ${sessionId} cannot be exported: ${detail}`,
  ExportTargetRefused: ({ file, detail }) => `${file}: ${detail}; nothing was written`,
};

export class ExportError<F extends ExportFault = ExportFault> extends CodedError<F> {
  override readonly name = 'ExportError';
  constructor(fault: F) {
    super(fault, describeFault(exportMessages)(fault));
  }
}

/** Narrow an unknown error to an ExportError, of the given codes when any are named. */
export const isExportError = codedErrorGuard<ExportFault, ExportError>(ExportError);

export const sessionNotExportable = (sessionId: string, detail: string): ExportError =>
  new ExportError({ code: 'SessionNotExportable', sessionId, detail });

export const exportTargetRefused = (file: string, detail: string): ExportError =>
  new ExportError({ code: 'ExportTargetRefused', file, detail });
