import { type SessionId, type TeamId, leadOf } from '@teamlog/events';
import { type TeamView, eventClockOf } from '@teamlog/projections';
import {
  type EventStore,
  type GlobalPosition,
  comparePositions,
  formatPosition,
  sessionStream,
  isStoreError,
} from '@teamlog/store';

/** One step of the time control: an event of the team's sessions. */
export interface TeamMoment {
  /** The `$all` position (`commit/prepare`): the page asks for the views `asOf` it. */
  readonly position: string;
  readonly time: number;
  readonly sessionId: SessionId;
  readonly seq: number;
  readonly type: string;
}

/** The most steps the time control gets; a longer history is sampled evenly (its first and last events kept). */
export const maxTeamMoments = 400;

type Positioned = TeamMoment & { readonly at: GlobalPosition };

/** Every `limit`-th step of a long history, so that the first and the last are always kept. */
export const sampleEvenly = <A>(items: readonly A[], limit: number): A[] => {
  if (items.length <= limit) return [...items];
  return Array.from(
    { length: limit },
    (_, index) => items[Math.round((index * (items.length - 1)) / (limit - 1))] as A,
  );
};

/** What is known of one session's stream: its moments, where the next read starts, and the revision of its generation's seq 0. */
interface SessionMoments {
  readonly moments: Positioned[];
  next: bigint;
  base: bigint;
}

/**
 * The team histories the time control steps through, read once: each session's stream is read
 * from where the last request stopped, so a page refreshed on every change reads only the new
 * events, not the team's whole history again. Requests are served one at a time (a tail is read
 * once). The moments are kept in memory, one small record per event of the teams asked for. A
 * session a later generation superseded steps through that generation alone, as the views fold
 * it: from after the last `teamlog/import/superseded`, seqs counted from there
 * (docs/rules.md#import-superseded).
 */
export class TeamMoments {
  private readonly sessions = new Map<SessionId, SessionMoments>();
  private turn: Promise<unknown> = Promise.resolve();

  constructor(private readonly store: EventStore) {}

  /** The team's history (its Lead's and members' events) in `$all` order, sampled to `maxTeamMoments`. */
  read(team: TeamView): Promise<TeamMoment[]> {
    const reading = this.turn.then(() => this.readNow(team));
    this.turn = reading.catch(() => undefined);
    return reading;
  }

  private async readNow(team: TeamView): Promise<TeamMoment[]> {
    const ids: SessionId[] = [leadOf(team.teamId as TeamId), ...team.members.map((member) => member.id)];
    const all: Positioned[] = [];
    for (const id of ids) all.push(...(await this.tail(id)));
    all.sort((a, b) => comparePositions(a.at, b.at));
    return sampleEvenly(all, maxTeamMoments).map(({ position, time, sessionId, seq, type }) => ({
      position,
      time,
      sessionId,
      seq,
      type,
    }));
  }

  private async tail(sessionId: SessionId): Promise<readonly Positioned[]> {
    const known = this.sessions.get(sessionId) ?? { moments: [], next: 0n, base: 0n };
    this.sessions.set(sessionId, known);
    try {
      for await (const event of this.store.readStream(sessionStream(sessionId), { from: known.next })) {
        known.next = event.revision + 1n;
        if (event.type === 'teamlog/import/superseded') {
          known.moments.length = 0;
          known.base = event.revision + 1n;
          continue;
        }
        known.moments.push({
          position: formatPosition(event.position),
          at: event.position,
          time: eventClockOf(event).time,
          sessionId,
          seq: Number(event.revision - known.base),
          type: event.type,
        });
      }
    } catch (error) {
      if (!isStoreError(error, 'StreamNotFound')) throw error;
    }
    return known.moments;
  }
}
