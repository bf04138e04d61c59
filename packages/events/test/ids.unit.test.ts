import { EventId, sequentialIds } from '@teamlog/events';

describe('sequential ids', () => {
  it('repeat for the same prefix and never collide across prefixes', () => {
    const take = (prefix: string) => {
      const ids = sequentialIds(prefix);
      return [ids.eventId(), ids.eventId(), ids.messageId()];
    };
    expect(take('a')).toEqual(take('a'));
    const a = new Set<string>(take('a').slice(0, 2));
    expect(
      take('b')
        .slice(0, 2)
        .some((id) => a.has(id)),
    ).toBe(false);
    expect(EventId.is(take('c')[0])).toBe(true);
  });
});
