import { type SessionId, sequentialIds } from '@teamlog/events';
import { type EventStore, InMemoryEventStore } from '@teamlog/store';
import { type TeamLog, createTeamLog } from '@teamlog/team';
import { type ToolSession, openToolSession } from '@teamlog/tools';

/* A team on the real engine (in-memory store, deterministic ids and clock), and each session's tool context. */

export interface ToolTeam {
  readonly store: EventStore;
  readonly teamlog: TeamLog;
  readonly lead: ToolSession;
  /** Tool contexts of the members, by name; built as a host would, from session ids only. */
  readonly members: Readonly<Record<string, ToolSession>>;
}

export const fixedClock = (): (() => Date) => {
  let tick = Date.UTC(2026, 9, 1);
  return () => new Date((tick += 1000));
};

export const toolTeam = async (
  names: readonly string[],
  store: EventStore = new InMemoryEventStore(),
  prefix = 'tt',
): Promise<ToolTeam> => {
  const teamlog = createTeamLog({ store, ids: sequentialIds(prefix), clock: fixedClock() });
  const lead = await teamlog.createTeam();
  const memberIds: SessionId[] = [];
  for (const name of names) memberIds.push((await lead.spawnMember({ name, description: `the ${name}` })).sessionId);
  const members: Record<string, ToolSession> = {};
  for (const [index, name] of names.entries()) {
    const id = memberIds[index];
    if (id !== undefined) members[name] = await openToolSession(teamlog, id);
  }
  return { store, teamlog, lead: await openToolSession(teamlog, lead.sessionId), members };
};

export const memberOf = (team: ToolTeam, name: string): ToolSession => {
  const found = team.members[name];
  if (found === undefined) throw new Error(`no member ${name} in the fixture`);
  return found;
};
