import { isLeft } from 'fp-ts/Either';
import { DecodeError, UserMessage, decodeCatalogEvent, decodeWith } from '@teamlog/events';

const leftOf = <E, A>(result: { _tag: 'Left'; left: E } | { _tag: 'Right'; right: A }): E => {
  if (!isLeft(result)) throw new Error('expected a decode failure');
  return result.left;
};

describe('decode errors', () => {
  it('name the field path and the expected type in one line', () => {
    const error = leftOf(
      decodeCatalogEvent('team/member', {
        version: 2,
        teamId: 'lead',
        member: { id: 'a', name: 'n', description: '', provider: 'spawn', context: 'fresh', phase: 'retired' },
      }),
    );
    expect(error).toBeInstanceOf(DecodeError);
    expect(error.path).toBe('data.member.phase');
    expect(error.message).toBe('data.member.phase: expected MemberPhase, got "retired"');
    expect(error.message).not.toContain('\n');
  });

  it('name array indexes and nested message fields', () => {
    const error = leftOf(
      decodeWith(
        UserMessage,
        'data',
      )({
        id: 'm',
        role: 'user',
        content: [
          { type: 'text', text: 'ok' },
          { type: 'text', text: 7 },
        ],
        source: { kind: 'user' },
      }),
    );
    expect(error.message).toBe('data.content[1].text: expected string, got 7');
  });

  it('report a missing field as got nothing', () => {
    const error = leftOf(decodeCatalogEvent('teamlog/inbox/claimed', { list: 'next-step', turn: 1 }));
    expect(error.message).toBe('data.messageIds: expected ReadonlyArray<MessageId>, got nothing');
  });

  it('add the file and line when the reader knows them', () => {
    const error = leftOf(decodeCatalogEvent('turn/start', { turn: -1 })).at({ file: 'lead/session.jsonl', line: 12 });
    expect(error.message).toBe('lead/session.jsonl:line 12: data.turn: expected NonNegativeInteger, got -1');
    expect(error.location).toEqual({ file: 'lead/session.jsonl', line: 12 });
  });

  it('refuse a malformed peer source instead of keeping it as an unknown kind', () => {
    const error = leftOf(
      decodeCatalogEvent('user/message', {
        id: 'm',
        role: 'user',
        content: [],
        source: { kind: 'team-relay', form: 'relay', senderSessionId: 'lead' },
      }),
    );
    expect(error.path).toBe('data.source.senderName');
  });
});
