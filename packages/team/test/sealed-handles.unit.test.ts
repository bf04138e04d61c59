import type { SessionId } from '@teamlog/events';
import type { LeadSession, MemberSession, SessionRuntime, TeamLog } from '@teamlog/team';
import { fixture, member, startedTeam, streamOf } from '@teamlog/test-support/team-fixture';
import type { EventStore } from '@teamlog/store';

/* A handle's identity is sealed: whatever a caller does to the object, it acts as the session it was made for. */

type Forgery = (
  target: object,
  as: { readonly sessionId: SessionId; readonly teamId: string; readonly name: string },
) => void;

const forgeries: ReadonlyArray<readonly [string, Forgery]> = [
  [
    'assignment',
    (target, as) => {
      (target as { sessionId: SessionId }).sessionId = as.sessionId;
    },
  ],
  [
    'defineProperty',
    (target, as) => {
      Object.defineProperty(target, 'sessionId', { value: as.sessionId });
    },
  ],
  [
    'setPrototypeOf',
    (target, as) => {
      Object.setPrototypeOf(target, { sessionId: as.sessionId, teamId: as.teamId, name: as.name });
    },
  ],
  [
    'a getter on the prototype',
    (target, as) => {
      Object.defineProperty(Object.getPrototypeOf(target) as object, 'sessionId', { get: () => as.sessionId });
    },
  ],
];

/** Each forgery throws (the object is frozen, its class fixed) and the identity stays the one it was made with. */
const expectSealed = (
  target: { readonly sessionId: SessionId },
  as: { readonly sessionId: SessionId; readonly teamId: string; readonly name: string },
): void => {
  const before = target.sessionId;
  for (const [, forge] of forgeries) {
    expect(() => forge(target, as)).toThrow(TypeError);
    expect(target.sessionId).toBe(before);
  }
};

const lastSender = async (store: EventStore, sessionId: SessionId): Promise<unknown> =>
  (
    (await streamOf(store, sessionId)).at(-1)?.data as
      | { message?: { source?: { senderSessionId?: unknown } } }
      | undefined
  )?.message?.source?.senderSessionId;

describe('sealed handle identity', () => {
  const team = async (): Promise<{
    store: EventStore;
    teamlog: TeamLog;
    lead: LeadSession;
    reviewer: MemberSession;
    writer: MemberSession;
  }> => {
    const { store, teamlog } = fixture();
    const started = await startedTeam(teamlog, 'reviewer', 'writer');
    return {
      store,
      teamlog,
      lead: started.lead,
      reviewer: member(started, 'reviewer'),
      writer: member(started, 'writer'),
    };
  };

  it.each(forgeries)(
    "given the Lead handle, when %s tries to make it the reviewer, then it throws and a send is still the Lead's",
    async (_, forge) => {
      const { store, lead, reviewer, writer } = await team();
      expect(() => forge(lead, reviewer)).toThrow(TypeError);
      expect(lead.sessionId).not.toBe(reviewer.sessionId);
      await lead.send({ target: 'writer', message: 'from the lead' });
      expect(await lastSender(store, writer.sessionId)).toBe(lead.sessionId);
    },
  );

  it.each(forgeries)(
    "given a member handle, when %s tries to make it the Lead, then it throws and a send is still the member's",
    async (_, forge) => {
      const { store, lead, reviewer, writer } = await team();
      expect(() => forge(reviewer, lead)).toThrow(TypeError);
      await reviewer.send({ target: 'writer', message: 'from the reviewer' });
      expect(await lastSender(store, writer.sessionId)).toBe(reviewer.sessionId);
    },
  );

  it('given the public fields, then they are read-only accessors and the handle has no own property to overwrite', async () => {
    const { lead, reviewer } = await team();
    for (const handle of [lead, reviewer]) {
      expect(Reflect.ownKeys(handle)).toEqual([]);
      expect(Object.isFrozen(handle)).toBe(true);
      expect(Object.isFrozen(Object.getPrototypeOf(handle))).toBe(true);
    }
  });

  it("given another object, when a handle's send is called on it or on an object made from the handle, then it is refused and nothing is written", async () => {
    const { store, lead, reviewer, writer } = await team();
    const before = (await streamOf(store, writer.sessionId)).length;
    const impostor = { sessionId: lead.sessionId, teamId: lead.teamId, name: 'lead' };
    await expect(
      Promise.resolve().then(() => reviewer.send.call(impostor, { target: 'writer', message: 'x' })),
    ).rejects.toThrow(TypeError);
    const derived = Object.create(reviewer) as MemberSession;
    await expect(Promise.resolve().then(() => derived.send({ target: 'writer', message: 'x' }))).rejects.toThrow(
      TypeError,
    );
    expect((await streamOf(store, writer.sessionId)).length).toBe(before);
  });

  it('given a session runtime, then its session is sealed the same way', async () => {
    const { teamlog, lead, reviewer } = await team();
    const runtime: SessionRuntime = teamlog.runtime(reviewer.sessionId);
    expectSealed(runtime, lead);
    expect(runtime.sessionId).toBe(reviewer.sessionId);
    expect(Reflect.ownKeys(runtime)).toEqual([]);
  });
});
