import type { KnownRevision, StreamName } from '@teamlog/store';
import { InMemoryEventStore } from '@teamlog/store';
import { sequentialIds } from '@teamlog/events';
import { HookedStore } from './hooked-store';
import { fixture, member, startedTeam } from '@teamlog/test-support/team-fixture';

/**
 * Heads the way a server store knows them: from its own appends and from notifications, which
 * here never come (another process's commit is known only by reading).
 */
class NotifiedHeadsStore extends HookedStore {
  private readonly heard = new Map<StreamName, KnownRevision>();

  constructor(inner: InMemoryEventStore) {
    super(inner);
    this.after = (stream) => {
      this.heard.set(stream, inner.knownRevision(stream));
    };
  }

  override get knownRevisionCovers(): 'notified' {
    return 'notified';
  }

  override knownRevision(stream: StreamName): KnownRevision | undefined {
    return this.heard.get(stream);
  }
}

describe('reading what another process committed', () => {
  it('given a member in another process that sent to the Lead, when the Lead process reads its session before any notification, then the inbox holds the message', async () => {
    const shared = new InMemoryEventStore();
    const leadSide = fixture(new NotifiedHeadsStore(shared));
    const team = await startedTeam(leadSide.teamlog, 'implementer');
    const memberId = member(team, 'implementer').sessionId;
    // Warm the Lead process's fold of its own stream: the stale fold the read must not trust.
    expect((await leadSide.teamlog.session(team.lead.sessionId)).inbox).toEqual([]);

    const memberSide = fixture(shared, { ids: sequentialIds('m') });
    const sender = await memberSide.teamlog.openMember(team.lead.teamId, memberId);
    const sent = await sender.send({ target: 'lead', message: 'done' });

    const read = await leadSide.teamlog.session(team.lead.sessionId);
    expect(read.inbox.map((entry) => entry.id)).toEqual([sent]);
    expect((await team.lead.roster()).map((entry) => entry.id)).toEqual([memberId]);
  });

  it('given a store whose heads cover other writers at once, when a session is read twice with nothing appended, then the second read reads no stream', async () => {
    const store = new InMemoryEventStore();
    const { teamlog } = fixture(store);
    const team = await startedTeam(teamlog);
    await teamlog.session(team.lead.sessionId);
    const reads = jest.spyOn(store, 'readStream');
    await teamlog.session(team.lead.sessionId);
    expect(reads).not.toHaveBeenCalled();
  });
});
