import { type TranscriptContext, type TranscriptEvent, conversationOf, messageTextIn } from '../src/conversation';

const noStatus: TranscriptContext = { inboxStatus: new Map(), legacyStatus: new Map() };
const text = (value: string) => ({ type: 'text', text: value });

describe('conversationOf', () => {
  it('given user, assistant and tool events, then it reads them in order: text, reasoning, tool calls and results', () => {
    const events: TranscriptEvent[] = [
      {
        seq: 0,
        type: 'user/message',
        data: { id: 'u1', role: 'user', content: [text('Create the file.')], source: { kind: 'user' } },
      },
      { seq: 1, type: 'turn/start', data: { turn: 1 } },
      {
        seq: 2,
        type: 'assistant/message',
        data: {
          turn: 1,
          step: 1,
          message: {
            id: 'a1',
            role: 'assistant',
            content: [
              { type: 'reasoning', text: 'Use write.' },
              text('Writing it.'),
              { type: 'tool-call', id: 'c1', name: 'write', arguments: '{"path":"a.txt"}' },
            ],
          },
        },
      },
      {
        seq: 3,
        type: 'tool/result',
        data: {
          turn: 1,
          step: 1,
          message: {
            id: 'r1',
            role: 'tool',
            source: { kind: 'tool', callId: 'c1' },
            toolCallId: 'c1',
            content: [text('written')],
            isError: true,
          },
        },
      },
      { seq: 4, type: 'step/start', data: { turn: 1, step: 2 } },
      { seq: 5, type: 'turn/end', data: { turn: 1, reason: { kind: 'completed' } } },
    ];
    expect(
      conversationOf(events, noStatus).map((item) => [
        item.seq,
        item.kind,
        item.author,
        item.text,
        item.isError ?? false,
      ]),
    ).toEqual([
      [0, 'user', 'user', 'Create the file.', false],
      [1, 'turn', 'teamlog', 'turn 1 started', false],
      [2, 'reasoning', 'assistant', 'Use write.', false],
      [2, 'assistant', 'assistant', 'Writing it.', false],
      [2, 'tool-call', 'write', '{"path":"a.txt"}', false],
      [3, 'tool-result', 'result of c1', 'written', true],
      [5, 'turn', 'teamlog', 'turn 1 ended: completed', false],
    ]);
  });

  it('given a Team message accepted then claimed, then it shows once, where it arrived, with its sender, delivery and status', () => {
    const message = {
      id: 'm1',
      role: 'user',
      content: [text('Team message from researcher:'), text('Done.')],
      source: { kind: 'team-relay', form: 'relay', senderSessionId: 's-r', senderName: 'researcher' },
    };
    const events: TranscriptEvent[] = [
      { seq: 7, type: 'teamlog/inbox/accepted', data: { teamId: 't', list: 'next-step', message } },
      { seq: 8, type: 'teamlog/inbox/claimed', data: { list: 'next-step', messageIds: ['m1'], turn: 2, step: 1 } },
      { seq: 9, type: 'user/message', data: message },
    ];
    const context: TranscriptContext = {
      inboxStatus: new Map([['m1', { status: 'claimed', list: 'next-step' }]]),
      legacyStatus: new Map(),
    };
    expect(conversationOf(events, context)).toEqual([
      {
        seq: 7,
        kind: 'team-message',
        author: 'researcher',
        senderSessionId: 's-r',
        text: 'Team message from researcher:\nDone.',
        messageId: 'm1',
        delivery: 'next-step',
        status: 'claimed',
      },
    ]);
  });

  it('given a prompt spliced into the inbox, then it is the user speaking, with its list, not a Team message', () => {
    const events: TranscriptEvent[] = [
      {
        seq: 0,
        type: 'agent/inbox/spliced',
        data: {
          target: 'next-turn',
          start: 0,
          inserted: [{ id: 'p1', role: 'user', content: [text('Hello')], source: { kind: 'user' } }],
        },
      },
    ];
    expect(conversationOf(events, noStatus)).toEqual([
      { seq: 0, kind: 'user', author: 'user', text: 'Hello', messageId: 'p1', delivery: 'next-turn' },
    ]);
  });

  it('given a legacy mailbox record, then it is marked as such, with both ends, its v1 delivery and whether it was delivered', () => {
    const events: TranscriptEvent[] = [
      {
        seq: 3,
        type: 'team/message/queued',
        data: {
          version: 1,
          teamId: 'lead',
          message: {
            id: 'q1',
            senderId: 'lead',
            senderName: 'lead',
            targetId: 'm-a',
            delivery: 'wakeup',
            content: [text('<b>take task-1</b>')],
          },
        },
      },
    ];
    const context: TranscriptContext = {
      inboxStatus: new Map(),
      legacyStatus: new Map([['q1', { status: 'undelivered', targetName: 'alpha' }]]),
    };
    expect(conversationOf(events, context)).toEqual([
      {
        seq: 3,
        kind: 'legacy-mailbox',
        author: 'lead',
        target: 'alpha',
        text: '<b>take task-1</b>',
        messageId: 'q1',
        delivery: 'wakeup',
        status: 'undelivered',
      },
    ]);
  });

  it('given images, files and unknown blocks, then each becomes a short note instead of disappearing', () => {
    const events: TranscriptEvent[] = [
      {
        seq: 0,
        type: 'user/message',
        data: {
          id: 'u',
          role: 'user',
          content: [
            { type: 'image', attachment: { attachmentId: 'i1', name: 'shot.png' } },
            { type: 'plugin-card', body: 1 },
          ],
          source: { kind: 'user' },
        },
      },
    ];
    expect(conversationOf(events, noStatus)[0]?.text).toBe('[image shot.png]\n[plugin-card]');
  });
});

describe('messageTextIn', () => {
  it('finds the text of the named message in a splice, an acceptance or a mailbox record', () => {
    const a = { id: 'a', content: [text('first')] };
    const b = { id: 'b', content: [text('second')] };
    expect(messageTextIn('agent/inbox/spliced', { inserted: [a, b] }, 'b')).toBe('second');
    expect(messageTextIn('teamlog/inbox/accepted', { message: a }, 'a')).toBe('first');
    expect(messageTextIn('team/message/queued', { message: b }, 'b')).toBe('second');
    expect(messageTextIn('user/message', a, 'a')).toBe('first');
  });
});
