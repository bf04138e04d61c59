import { isRight } from 'fp-ts/Either';
import { MessageSource, isPeerSource } from '@teamlog/events';

describe('message sources', () => {
  it('keep an unknown kind with every field it carries', () => {
    const source = { kind: 'future-relay', form: 'relay', senderSessionId: 's', extra: { nested: [1, 2] } };
    const decoded = MessageSource.decode(source);
    expect(isRight(decoded) && decoded.right).toEqual(source);
  });

  it('recognise the three peer kinds and nothing else as peer sources', () => {
    expect(isPeerSource({ kind: 'team-relay', form: 'relay', senderSessionId: 's' as never, senderName: 'n' })).toBe(
      true,
    );
    expect(isPeerSource({ kind: 'agent-message', form: 'relay', senderSessionId: 's' as never })).toBe(true);
    expect(isPeerSource({ kind: 'coordinator' })).toBe(false);
  });

  it('refuse an extra key on an exact peer source', () => {
    expect(
      isRight(MessageSource.decode({ kind: 'agent-message', form: 'relay', senderSessionId: 's', senderName: 'x' })),
    ).toBe(false);
  });
});
