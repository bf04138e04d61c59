import { SessionId, TeamId, leadOf } from '@teamlog/events';
import { TeamView, eventClockOf } from '@teamlog/projections';
import { EventStore, GlobalPosition, StreamNotFound, comparePositions, formatPosition, sessionStream } from '@teamlog/store';

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

const momentsOf = async (store: EventStore, sessionId: SessionId): Promise<Positioned[]> => {
  const found: Positioned[] = [];
  try {
    for await (const event of store.readStream(sessionStream(sessionId))) {
      found.push({
        position: formatPosition(event.position),
        at: event.position,
        time: eventClockOf(event).time,
        sessionId,
        seq: Number(event.revision),
        type: event.type,
      });
    }
  } catch (error) {
    if (!(error instanceof StreamNotFound)) throw error;
  }
  return found;
};

/** Every `limit`-th step of a long history, so that the first and the last are always kept. */
export const sampleEvenly = <A>(items: readonly A[], limit: number): A[] => {
  if (items.length <= limit) return [...items];
  return Array.from({ length: limit }, (_, index) => items[Math.round((index * (items.length - 1)) / (limit - 1))] as A);
};

/** The team's history (its Lead's and members' events) in `$all` order: the steps of the page's time control. */
export const readTeamMoments = async (store: EventStore, team: TeamView): Promise<TeamMoment[]> => {
  const sessions: SessionId[] = [leadOf(team.teamId as TeamId), ...team.members.map((member) => member.id)];
  const all = (await Promise.all(sessions.map((id) => momentsOf(store, id)))).flat();
  all.sort((a, b) => comparePositions(a.at, b.at));
  return sampleEvenly(all, maxTeamMoments).map(({ position, time, sessionId, seq, type }) => ({ position, time, sessionId, seq, type }));
};
