import type { MessageId, SessionId } from '@teamlog/events';
import { relayedMessage } from '@teamlog/domain';

const alice = { sessionId: 'session-alice' as SessionId, name: 'alice' };
const relay = (id: string, sender = alice, text = id) =>
  relayedMessage(id as MessageId, sender, [{ type: 'text', text }]);

describe('relayed message', () => {
  it('given a sender, when it relays a message, then the target copy is a heading naming the sender, the blocks unchanged and the true sender as source', () => {
    expect(relay('m-1', alice, 'hello')).toEqual({
      id: 'm-1',
      role: 'user',
      content: [
        { type: 'text', text: 'Team message from alice:' },
        { type: 'text', text: 'hello' },
      ],
      source: { kind: 'team-relay', form: 'relay', senderSessionId: 'session-alice', senderName: 'alice' },
    });
  });

  it('given two messages of one sender, when relayed, then they share one heading block and one source (an unclaimed inbox keeps one of each per sender)', () => {
    const first = relay('m-1');
    const second = relay('m-2');
    expect(second.source).toBe(first.source);
    expect(second.content[0]).toBe(first.content[0]);
    expect(second.content).not.toBe(first.content);
  });

  it('given a sender renamed under the same session, when it relays, then the heading and source carry the new name', () => {
    relay('m-1');
    const renamed = relay('m-2', { sessionId: alice.sessionId, name: 'alice-2' });
    expect(renamed.content[0]).toEqual({ type: 'text', text: 'Team message from alice-2:' });
    expect(renamed.source).toEqual({
      kind: 'team-relay',
      form: 'relay',
      senderSessionId: 'session-alice',
      senderName: 'alice-2',
    });
  });

  it('given more senders than the shared parts are kept for, when each relays again, then every message names its own sender', () => {
    const senders = Array.from({ length: 1_100 }, (_, index) => ({
      sessionId: `session-${index}` as SessionId,
      name: `member-${index}`,
    }));
    for (const sender of senders) relay(`m-${sender.name}`, sender);
    const named = senders.map((sender) => relay(`again-${sender.name}`, sender).source);
    expect(named.map(({ senderSessionId }) => senderSessionId)).toEqual(senders.map(({ sessionId }) => sessionId));
    expect(named.map(({ senderName }) => senderName)).toEqual(senders.map(({ name }) => name));
  });

  it('given blocks of the sender, when relayed, then the caller’s array is neither changed nor kept', () => {
    const blocks = [
      { type: 'text' as const, text: 'one' },
      { type: 'text' as const, text: 'two' },
    ];
    const message = relayedMessage('m-1' as MessageId, alice, blocks);
    expect(blocks).toHaveLength(2);
    expect(message.content).toHaveLength(3);
    expect(message.content.slice(1)).toEqual(blocks);
    expect(message.content).not.toBe(blocks);
  });
});
