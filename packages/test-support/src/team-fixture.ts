import { type SessionId, sequentialIds } from '@teamlog/events';
import { type EventStore, InMemoryEventStore, type RecordedEvent, sessionStream } from '@teamlog/store';
import {
  type AcceptedNotice,
  type LeadSession,
  type MemberSession,
  type TeamLog,
  type TeamLogOptions,
  createTeamLog,
} from '@teamlog/team';

/* A TeamLog over a store with deterministic ids and clock, and a recorder of accepted notices. */

export const fixedClock = (): (() => Date) => {
  let tick = Date.UTC(2026, 9, 1);
  return () => new Date((tick += 1000));
};

export interface Fixture {
  readonly store: EventStore;
  readonly teamlog: TeamLog;
  readonly notices: AcceptedNotice[];
}

export const fixture = (
  store: EventStore = new InMemoryEventStore(),
  options: Partial<TeamLogOptions> = {},
): Fixture => {
  const notices: AcceptedNotice[] = [];
  const teamlog = createTeamLog({
    store,
    ids: sequentialIds('t'),
    clock: fixedClock(),
    onAccepted: (notice) => notices.push(notice),
    ...options,
  });
  return { store, teamlog, notices };
};

export interface Team {
  readonly lead: LeadSession;
  readonly members: Record<string, MemberSession>;
}

/** A started Lead and started members, all idle. */
export const startedTeam = async (teamlog: TeamLog, ...names: string[]): Promise<Team> => {
  const lead = await teamlog.createTeam();
  await teamlog.runtime(lead.sessionId).start();
  const members: Record<string, MemberSession> = {};
  for (const name of names) {
    const spawned = await lead.spawnMember({ name, description: `the ${name}`, provider: 'scripted' });
    await teamlog.runtime(spawned.sessionId).start();
    members[name] = await teamlog.openMember(lead.teamId, spawned.sessionId);
  }
  return { lead, members };
};

export const member = (team: Team, name: string): MemberSession => {
  const found = team.members[name];
  if (found === undefined) throw new Error(`no member ${name} in the fixture`);
  return found;
};

export const streamOf = async (store: EventStore, session: SessionId): Promise<RecordedEvent[]> => {
  const events: RecordedEvent[] = [];
  for await (const event of store.readStream(sessionStream(session))) events.push(event);
  return events;
};

export const typesOf = (events: readonly RecordedEvent[]): string[] => events.map((event) => event.type);
