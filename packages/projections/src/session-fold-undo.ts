import type { SessionId } from '@teamlog/events';
import { type RecordedEvent, sessionIdOfHeaderStream, sessionIdOfStream } from '@teamlog/store';
import type { FoldUndo } from './fold-undo';
import type { ProjectionState } from './projection-state';

/** The session whose views an event's fold writes: the fold writes only its own session's entries (evolve-projection.ts). */
const sessionOf = (stream: RecordedEvent['streamName']): SessionId | undefined =>
  sessionIdOfHeaderStream(stream) ?? sessionIdOfStream(stream);

/** Drop every trace of a session the undone folds created: its entries and what the pending changes say of it. */
const forgetSession = (state: ProjectionState, id: SessionId): void => {
  state.sessions.delete(id);
  state.teams.delete(id);
  state.inboxes.delete(id);
  const { changes } = state;
  changes.resets.delete(id);
  changes.sessions.delete(id);
  changes.teams.delete(id);
  changes.teamFactsCommitted.delete(id);
  changes.inboxEntries.delete(id);
  changes.inboxLists.delete(id);
  let kept = 0;
  for (const change of changes.held) if (change.sessionId !== id) changes.held[kept++] = change;
  changes.held.length = kept;
};

/**
 * The undo log of teamlog's views: a fold it admits writes only sessions the views did not hold
 * before (a session's Team, inbox and facts are updated in place, so one already held could not
 * be put back), and undoing it removes those sessions. That is a one-shot replay's later file: a
 * new session, read once, folded as it is read, and gone from the views if a line rejects it.
 */
export class SessionFoldUndo implements FoldUndo<ProjectionState> {
  private readonly created = new Set<SessionId>();
  private state: ProjectionState | undefined;
  private spoiled = false;
  /** The last stream admitted: a batch is one stream's run, so its session is looked up once. */
  private lastStream: string | undefined;

  admit(state: ProjectionState, events: readonly RecordedEvent[]): boolean {
    if (this.spoiled || (this.state !== undefined && this.state !== state)) return false;
    let lastStream = this.lastStream;
    const added: SessionId[] = [];
    for (const event of events) {
      const stream = event.streamName;
      if (stream === lastStream) continue;
      lastStream = stream;
      const id = sessionOf(stream);
      if (id === undefined || this.created.has(id)) continue;
      if (state.sessions.has(id) || state.teams.has(id) || state.inboxes.has(id)) {
        // Refused whole: the batch is not folded, so it leaves nothing to undo.
        for (const created of added) this.created.delete(created);
        return false;
      }
      this.created.add(id);
      added.push(id);
    }
    this.lastStream = lastStream;
    this.state = state;
    return true;
  }

  spoil(): void {
    this.spoiled = true;
  }

  undo(): boolean {
    const { state } = this;
    const undone = !this.spoiled && state !== undefined;
    if (undone) for (const id of this.created) forgetSession(state, id);
    this.forget();
    return undone;
  }

  forget(): void {
    this.created.clear();
    this.state = undefined;
    this.spoiled = false;
    this.lastStream = undefined;
  }
}
