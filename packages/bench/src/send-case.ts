import { type MemberSession, type TeamLog, createTeamLog } from '@teamlog/team';
import type { EventStore } from '@teamlog/store';

export interface SendTeam {
  readonly teamlog: TeamLog;
  readonly members: readonly MemberSession[];
}

/** A started Lead and `count` started (idle) members: every send lands on an idle target (next-turn). */
export const startTeam = async (store: EventStore, count: number): Promise<SendTeam> => {
  const teamlog = createTeamLog({ store });
  const lead = await teamlog.createTeam({ cwd: '/bench/project' });
  await teamlog.runtime(lead.sessionId).start();
  const members: MemberSession[] = [];
  for (let index = 0; index < count; index += 1) {
    const spawned = await lead.spawnMember({
      name: `sender-${index + 1}`,
      description: 'sends benchmark messages',
      provider: 'bench',
    });
    await teamlog.runtime(spawned.sessionId).start();
    members.push(await teamlog.openMember(lead.teamId, spawned.sessionId));
  }
  return { teamlog, members };
};

/** Sender `sender`'s target for its `n`th message: every other member in turn, never itself. */
export const targetOf = (sender: number, n: number, members: number): number =>
  (sender + 1 + (n % (members - 1))) % members;

/**
 * `senders` member handles send concurrently, `messages` in all (split evenly), each awaiting its
 * previous send; resolves with how many sends were accepted.
 */
export const sendConcurrently = async (team: SendTeam, senders: number, messages: number): Promise<number> => {
  const { members } = team;
  if (senders > members.length || members.length < 2)
    throw new RangeError(`${senders} senders need at least that many members (and two), got ${members.length}`);
  const loops = Array.from({ length: senders }, async (_, sender) => {
    const handle = members[sender] as MemberSession;
    const share = Math.floor(messages / senders) + (sender < messages % senders ? 1 : 0);
    let accepted = 0;
    for (let n = 0; n < share; n += 1) {
      const target = members[targetOf(sender, n, members.length)] as MemberSession;
      await handle.send({
        target: target.name,
        message: `benchmark note ${n} from ${handle.name}: please review the parser patch and report failing tests`,
      });
      accepted += 1;
    }
    return accepted;
  });
  return (await Promise.all(loops)).reduce((sum, count) => sum + count, 0);
};
