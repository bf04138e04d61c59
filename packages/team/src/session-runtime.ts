import type { CloseReason, SessionId } from '@teamlog/events';
import type { SessionReport, TurnAbortKind } from '@teamlog/domain';
import type { LoopOutcome, TeamEngine } from './team-engine';

/**
 * How the host reports one session's loop. Pending messages are claimed at `beginTurn` (both
 * lists) and `beginStep` (next-step); each claim is recorded and the messages enter the
 * conversation as `user/message` with the ids they were accepted under.
 */
export interface SessionRuntime {
  readonly sessionId: SessionId;
  start(): Promise<LoopOutcome>;
  beginTurn(): Promise<LoopOutcome>;
  beginStep(): Promise<LoopOutcome>;
  endStep(): Promise<LoopOutcome>;
  /** Refused with SteerInputPending while steered messages wait: run one more step first. */
  endTurn(): Promise<LoopOutcome>;
  /** Ends the turn as aborted; steered messages still pending are canceled, not claimed. */
  abortTurn(reason: TurnAbortKind): Promise<LoopOutcome>;
  /** After a crash: ends the cut-off turn as interrupted; pending messages wait for the next turn. */
  interruptTurn(): Promise<LoopOutcome>;
  becomeResident(): Promise<LoopOutcome>;
  evict(): Promise<LoopOutcome>;
  resume(): Promise<LoopOutcome>;
  /** Killed, cancelled, lost or failed: pending messages are canceled; later sends are refused. */
  close(reason: CloseReason, detail?: string): Promise<LoopOutcome>;
}

/** Sealed like a session's handle: the session it reports for is a private field, read by `sessionId`. */
export class HostSessionRuntime implements SessionRuntime {
  readonly #engine: TeamEngine;
  readonly #sessionId: SessionId;

  constructor(engine: TeamEngine, sessionId: SessionId) {
    this.#engine = engine;
    this.#sessionId = sessionId;
  }

  get sessionId(): SessionId {
    return this.#sessionId;
  }

  private report(report: SessionReport): Promise<LoopOutcome> {
    return this.#engine.track(report.type, () => this.#engine.report(this.#sessionId, report));
  }

  start(): Promise<LoopOutcome> {
    return this.report({ type: 'start' });
  }
  beginTurn(): Promise<LoopOutcome> {
    return this.report({ type: 'begin-turn' });
  }
  beginStep(): Promise<LoopOutcome> {
    return this.report({ type: 'begin-step' });
  }
  endStep(): Promise<LoopOutcome> {
    return this.report({ type: 'end-step' });
  }
  endTurn(): Promise<LoopOutcome> {
    return this.report({ type: 'end-turn' });
  }
  abortTurn(reason: TurnAbortKind): Promise<LoopOutcome> {
    return this.report({ type: 'abort-turn', reason });
  }
  interruptTurn(): Promise<LoopOutcome> {
    return this.report({ type: 'interrupt-turn' });
  }
  becomeResident(): Promise<LoopOutcome> {
    return this.report({ type: 'become-resident' });
  }
  evict(): Promise<LoopOutcome> {
    return this.report({ type: 'evict' });
  }
  resume(): Promise<LoopOutcome> {
    return this.report({ type: 'resume' });
  }
  close(reason: CloseReason, detail?: string): Promise<LoopOutcome> {
    return this.report({ type: 'close', reason, ...(detail === undefined ? {} : { detail }) });
  }
}

// A changed prototype getter could make a runtime misreport its session: the class is fixed.
Object.freeze(HostSessionRuntime.prototype);
