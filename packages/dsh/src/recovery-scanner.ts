import type { LogicalEvent } from './logical-event';

export type RecoveryReason = 'torn-tail' | 'incomplete-frame' | 'unparsable-line' | 'line-too-long' | 'seq-gap';

/** What the reader dropped and why; `keptEvents` is the recovered prefix. */
export interface Recovery {
  readonly reason: RecoveryReason;
  /** The first dropped line (1-based; the header is line 1). */
  readonly line: number;
  readonly detail: string;
  readonly keptEvents: number;
  /** Lines dropped from `line` on, the torn tail included. */
  readonly droppedLines: number;
}

/** Damage inside committed history: a `turn/end` follows the first problem. */
export interface DamagedHistory {
  readonly problem: { readonly reason: RecoveryReason; readonly line: number; readonly detail: string };
  readonly turnEndLine: number;
}

export type ScanStep =
  | { readonly kind: 'accept'; readonly events: readonly LogicalEvent[] }
  | { readonly kind: 'drop' }
  | { readonly kind: 'reject'; readonly damage: DamagedHistory };

export type RecordOutcome =
  | { readonly kind: 'events'; readonly events: readonly LogicalEvent[] }
  | {
      readonly kind: 'problem';
      readonly reason: 'unparsable-line' | 'line-too-long';
      readonly detail: string;
      readonly rawType?: string;
    };

/**
 * The recovery rule (docs/rules.md#recovery-damaged-tail), for every generation: seqs are dense from 0; at the
 * first unparsable line or seq gap stop accepting events; if a `turn/end` appears after that
 * point the damage is inside committed history and the whole file is rejected; otherwise the
 * prefix before the problem is the recovered log. Pure: the reader feeds it one record at a time.
 */
export class RecoveryScanner {
  private nextSeq = 0;
  private problem: DamagedHistory['problem'] | undefined;
  private droppedLines = 0;

  get expectedSeq(): number {
    return this.nextSeq;
  }

  get stopped(): boolean {
    return this.problem !== undefined;
  }

  /**
   * The common step, without a step object: accept one event when nothing was dropped yet and its
   * seq is the expected one (what `record` does for such an event). False changes nothing; the
   * caller then goes through `record`.
   */
  acceptNext(seq: number): boolean {
    if (this.problem !== undefined || seq !== this.nextSeq) return false;
    this.nextSeq += 1;
    return true;
  }

  /**
   * `acceptNext` for `count` events at seqs `first`, `first + 1`, ... (a packed row's members):
   * all of them accepted, or (false) none and nothing changed.
   */
  acceptRun(first: number, count: number): boolean {
    if (this.problem !== undefined || first !== this.nextSeq || count < 1) return false;
    this.nextSeq += count;
    return true;
  }

  record(line: number, outcome: RecordOutcome): ScanStep {
    if (this.problem !== undefined) {
      this.droppedLines += 1;
      const turnEnd =
        outcome.kind === 'events'
          ? outcome.events.some((event) => event.type === 'turn/end')
          : outcome.rawType === 'turn/end';
      return turnEnd ? { kind: 'reject', damage: { problem: this.problem, turnEndLine: line } } : { kind: 'drop' };
    }
    if (outcome.kind === 'problem') {
      return this.stop(
        { reason: outcome.reason, line, detail: outcome.detail },
        outcome.rawType === 'turn/end' ? line : undefined,
      );
    }
    const accepted: LogicalEvent[] = [];
    for (const event of outcome.events) {
      if (event.seq !== this.nextSeq) {
        // A packed row is one line: members before the gap are kept, the rest of the line is not.
        const detail = `seq gap: expected seq ${this.nextSeq}, got ${event.seq}`;
        const turnEndLine = outcome.events.some((later) => later.seq >= event.seq && later.type === 'turn/end')
          ? line
          : undefined;
        const step = this.stop({ reason: 'seq-gap', line, detail }, turnEndLine);
        return step.kind === 'reject' || accepted.length === 0 ? step : { kind: 'accept', events: accepted };
      }
      accepted.push(event);
      this.nextSeq += 1;
    }
    return { kind: 'accept', events: accepted };
  }

  /**
   * `count` lines in a row from `line` on, each the same problem that can never be a `turn/end`
   * (a run of blank lines): what `record` gives for each of them, in one step.
   */
  recordProblemRun(line: number, count: number, problem: RecordOutcome & { readonly kind: 'problem' }): ScanStep {
    const step = this.record(line, problem);
    this.droppedLines += count - 1;
    return step;
  }

  /** The end of the input: the torn tail (raw) or cut frame (zstd), if any, is dropped. */
  finish(
    tail: { readonly line: number; readonly reason: 'torn-tail' | 'incomplete-frame' } | undefined,
  ): Recovery | null {
    if (this.problem !== undefined) {
      return {
        ...this.problem,
        keptEvents: this.nextSeq,
        droppedLines: this.droppedLines + (tail === undefined ? 0 : 1),
      };
    }
    if (tail === undefined) return null;
    const detail =
      tail.reason === 'torn-tail'
        ? 'the last line has no trailing newline (torn write)'
        : 'the last zstd frame is incomplete (torn write)';
    return { reason: tail.reason, line: tail.line, detail, keptEvents: this.nextSeq, droppedLines: 1 };
  }

  private stop(problem: DamagedHistory['problem'], turnEndLine: number | undefined): ScanStep {
    this.problem = problem;
    this.droppedLines = 1;
    return turnEndLine === undefined ? { kind: 'drop' } : { kind: 'reject', damage: { problem, turnEndLine } };
  }
}
