import type { MessageId, SessionId, TeamId } from '@teamlog/events';
import type { InboxView, LegacyMessageView, TeamView } from '@teamlog/projections';
import { messageFlowOf } from '../src/message-flow';

const lead = 'lead-1' as SessionId;
const alice = 'alice-1' as SessionId;
const bob = 'bob-1' as SessionId;
const outsider = 'outsider-1' as SessionId;
const teamId = lead as string as TeamId;

const memberView = (id: SessionId, name: string): TeamView['members'][number] => ({
  id,
  name,
  description: name,
  provider: 'spawn',
  context: 'fresh',
  phase: 'active',
  status: 'idle',
  firstSeq: 1,
  seq: 2,
});

const legacy = (
  id: string,
  targetId: SessionId,
  status: 'delivered' | 'undelivered',
  queuedSeq: number,
): LegacyMessageView => ({
  id: id as MessageId,
  senderId: lead,
  senderName: 'lead',
  targetId,
  queuedSeq,
  status,
  recordVersion: 1,
});

const team = (legacyMessages: LegacyMessageView[] = []): TeamView => ({
  teamId,
  lead: { id: lead, status: 'idle' },
  members: [memberView(alice, 'alice'), memberView(bob, 'bob')],
  tasks: [],
  legacyMessages,
  failure: null,
});

const inbox = (
  messageId: string,
  sessionId: SessionId,
  sender: SessionId,
  extra: Partial<InboxView> = {},
): InboxView => ({
  sessionId,
  messageId: messageId as MessageId,
  itemId: messageId as MessageId,
  sourceKind: 'team-relay',
  senderSessionId: sender,
  senderName: sender,
  seq: 3,
  status: 'claimed',
  origin: 'accepted',
  time: 1000,
  ...extra,
});

describe('messageFlowOf', () => {
  it('lists the Lead first, then the roster in order', () => {
    expect(messageFlowOf(team(), [], new Map()).participants).toEqual([
      { id: lead, name: 'lead', role: 'lead' },
      { id: alice, name: 'alice', role: 'member' },
      { id: bob, name: 'bob', role: 'member' },
    ]);
  });

  it('orders messages by the time they were recorded, then by stream and seq', () => {
    const flow = messageFlowOf(
      team(),
      [
        inbox('late', alice, lead, { time: 3000 }),
        inbox('early', bob, alice, { time: 1000, seq: 7 }),
        inbox('same-time-lower-seq', bob, lead, { time: 1000, seq: 2 }),
      ],
      new Map(),
    );
    expect(flow.messages.map((message) => message.messageId)).toEqual(['same-time-lower-seq', 'early', 'late']);
  });

  it('takes each message’s sender, target, kind and inbox status from the target’s inbox', () => {
    const [message] = messageFlowOf(
      team(),
      [inbox('m1', bob, alice, { status: 'canceled', seq: 12 })],
      new Map(),
    ).messages;
    expect(message).toEqual({
      messageId: 'm1',
      from: alice,
      to: bob,
      senderName: alice,
      via: 'inbox',
      sourceKind: 'team-relay',
      status: 'canceled',
      time: 1000,
      recordedIn: bob,
      seq: 12,
    });
  });

  it('draws mailbox-era messages from the Lead log with their delivery status and the time of the queued record', () => {
    const flow = messageFlowOf(team([legacy('q1', alice, 'undelivered', 14)]), [], new Map([[14, 500]]));
    expect(flow.messages).toEqual([
      {
        messageId: 'q1',
        from: lead,
        to: alice,
        senderName: 'lead',
        via: 'legacy-mailbox',
        sourceKind: 'team/message/queued',
        status: 'undelivered',
        time: 500,
        recordedIn: lead,
        seq: 14,
      },
    ]);
  });

  it('draws a delivered mailbox message once, not again for the copy in its target’s inbox', () => {
    const flow = messageFlowOf(
      team([legacy('q1', alice, 'delivered', 14)]),
      [
        inbox('q1', alice, lead, { sourceKind: 'team-message', origin: 'spliced' }),
        inbox('q1-elsewhere', bob, lead, { sourceKind: 'team-message' }),
      ],
      new Map([[14, 10]]),
    );
    expect(flow.messages.map((message) => [message.messageId, message.via])).toEqual([
      ['q1', 'legacy-mailbox'],
      ['q1-elsewhere', 'inbox'],
    ]);
  });

  it('adds a lane for a sender outside the team, named as the message names it', () => {
    const flow = messageFlowOf(team(), [inbox('m1', alice, outsider, { senderName: 'mallory' })], new Map());
    expect(flow.participants.at(-1)).toEqual({ id: outsider, name: 'mallory', role: 'outside' });
  });

  it('leaves out messages to sessions outside the team unless they name the team', () => {
    const elsewhere = 'elsewhere-1' as SessionId;
    const flow = messageFlowOf(
      team(),
      [inbox('theirs', elsewhere, alice), inbox('ours', elsewhere, alice, { teamId })],
      new Map(),
    );
    expect(flow.messages.map((message) => message.messageId)).toEqual(['ours']);
    expect(flow.participants.map((participant) => participant.id)).toEqual([lead, alice, bob, elsewhere]);
  });
});
