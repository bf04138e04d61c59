import type { MessageId, SessionId, TeamId } from '@teamlog/events';
import type { InboxEntrySnapshot } from '@teamlog/team';
import { inboxMessageView } from '../src/inbox-view';

const entry = (source: InboxEntrySnapshot['source'], content: InboxEntrySnapshot['content']): InboxEntrySnapshot => ({
  id: 'm1' as MessageId,
  status: 'claimed',
  source,
  content,
  acceptedSeq: 4,
});

describe('inboxMessageView', () => {
  it('given each kind of source, then "from" is the name it records, or the kind when it records none', () => {
    const text = [{ type: 'text', text: 'hi' }] as const;
    expect(
      inboxMessageView(
        entry(
          { kind: 'team-relay', form: 'relay', senderSessionId: 's1' as SessionId, senderName: 'researcher' },
          text,
        ),
      ),
    ).toEqual({
      id: 'm1',
      from: 'researcher',
      fromSessionId: 's1',
      status: 'claimed',
      text: 'hi',
    });
    expect(
      inboxMessageView(
        entry(
          {
            kind: 'team-message',
            teamId: 't' as TeamId,
            messageId: 'm0' as MessageId,
            senderId: 's2' as SessionId,
            senderName: 'old-lead',
          },
          text,
        ),
      ),
    ).toMatchObject({
      from: 'old-lead',
      fromSessionId: 's2',
    });
    expect(
      inboxMessageView(entry({ kind: 'agent-message', form: 'relay', senderSessionId: 's3' as SessionId }, text)),
    ).toMatchObject({ from: 's3', fromSessionId: 's3' });
    expect(inboxMessageView(entry({ kind: 'user' }, text))).toEqual({
      id: 'm1',
      from: 'user',
      status: 'claimed',
      text: 'hi',
    });
  });

  it('given blocks that are not text, then each shows as a placeholder naming its type', () => {
    const content = [
      { type: 'text', text: 'see' },
      { type: 'image', attachment: { attachmentId: 'a', mediaType: 'image/png', bytes: 1, width: 1, height: 1 } },
    ] as const;
    expect(inboxMessageView(entry({ kind: 'user' }, content)).text).toBe('see\n[image]');
  });
});
