import type { ContentBlock } from '@teamlog/events';
import { parseTeamMessageHeader } from '@teamlog/projections';

const blocks = (...texts: string[]): ContentBlock[] => texts.map((text) => ({ type: 'text', text }));

describe('Team message header', () => {
  it('reads the mailbox-era header with its message id', () => {
    expect(parseTeamMessageHeader(blocks('Team message team-message-1 from lead:', 'hi'))).toEqual({
      messageId: 'team-message-1',
      senderName: 'lead',
    });
  });

  it('reads the direct-era header without an id', () => {
    expect(parseTeamMessageHeader(blocks('Team message from reviewer:', 'hi'))).toEqual({ senderName: 'reviewer' });
  });

  it('keeps a sender name with spaces', () => {
    expect(parseTeamMessageHeader(blocks('Team message from code reviewer:'))).toEqual({ senderName: 'code reviewer' });
  });

  it.each([
    ['a plain first block', blocks('Please start.')],
    ['the header not first', blocks('hi', 'Team message from lead:')],
    ['no trailing colon', blocks('Team message from lead')],
    ['no content', []],
    ['a non-text first block', [{ type: 'reasoning', text: 'Team message from lead:' }] as ContentBlock[]],
  ])('finds no header in %s', (_case, content) => {
    expect(parseTeamMessageHeader(content)).toBeUndefined();
  });
});
