import { type TeamLogError, type TeamLogFault, isTeamLogError, maxMessageBytes } from '@teamlog/team';
import { parseSendRequest } from '../src/send-request';

const refusal = (request: unknown): TeamLogError<Extract<TeamLogFault, { code: 'InvalidSendRequest' }>> | undefined => {
  try {
    parseSendRequest(request);
    return undefined;
  } catch (error) {
    return isTeamLogError(error, 'InvalidSendRequest') ? error : undefined;
  }
};

describe('send request', () => {
  it('given text, then it becomes one text block; given blocks, then they pass unchanged', () => {
    expect(parseSendRequest({ target: 'lead', message: 'hi' }).content).toEqual([{ type: 'text', text: 'hi' }]);
    const blocks = [
      { type: 'text', text: 'a' },
      { type: 'plugin:chart', series: [1, 2] },
    ];
    expect(parseSendRequest({ target: 'lead', message: blocks }).content).toEqual(blocks);
  });

  it('given text whose content JSON is exactly the limit, then it is accepted; a byte more is refused', () => {
    const atLimit = 'x'.repeat(maxMessageBytes - 27);
    expect(refusal({ target: 'lead', message: atLimit })).toBeUndefined();
    expect(refusal({ target: 'lead', message: `${atLimit}x` })?.fault.path).toBe('message');
  });

  it('given a block the codec refuses deep inside, then the refusal names its path', () => {
    const blocks = [{ type: 'tool-result', toolCallId: 'c1', content: [{ type: 'text', text: 1 }] }];
    expect(refusal({ target: 'lead', message: blocks })?.fault.path).toMatch(/^message\[0\]\.content/);
  });

  it("given a request whose prototype carries an enumerable key, then only the request's own keys are judged", () => {
    const request = Object.assign(Object.create({ sender: 'lead-1' }) as object, { target: 'lead', message: 'x' });
    expect(refusal(request)).toBeUndefined();
    expect(refusal({ ...request, extra: 1 })?.fault.path).toBe('extra');
  });

  it.each([
    ['a sender field', { target: 'lead', message: 'x', sender: 'lead-1' }, 'sender'],
    ['an empty target', { target: '', message: 'x' }, 'target'],
    ['an empty message', { target: 'lead', message: '' }, 'message'],
    ['no blocks', { target: 'lead', message: [] }, 'message'],
    [
      'a block with a wrong field',
      {
        target: 'lead',
        message: [
          { type: 'text', text: 'ok' },
          { type: 'text', text: 7 },
        ],
      },
      'message[1].text',
    ],
    ['a signal that is not an AbortSignal', { target: 'lead', message: 'x', signal: { aborted: false } }, 'signal'],
    ['oversized content', { target: 'lead', message: 'x'.repeat(maxMessageBytes + 1) }, 'message'],
    [
      'text under the limit whose JSON escapes take it over',
      { target: 'lead', message: '"'.repeat(maxMessageBytes / 2) },
      'message',
    ],
    ['no object at all', 'hello', '(root)'],
  ])('given %s, then InvalidSendRequest names the field', (_case, request, path) => {
    expect(refusal(request)?.fault.path).toBe(path);
  });
});
