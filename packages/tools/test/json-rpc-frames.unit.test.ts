import { decideFrame, idOfTruncatedFrame } from '@teamlog/tools';

const call = (params: unknown, id: number | string = 7) =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params });

describe('decideFrame', () => {
  it('given a valid request, then it is handed to the server', () => {
    expect(decideFrame(call({ name: 'list_members', arguments: {} }))).toEqual({
      kind: 'message',
      message: expect.objectContaining({ id: 7, method: 'tools/call' }),
    });
  });

  it('given a blank line, then nothing happens', () => {
    expect(decideFrame('   ')).toEqual({ kind: 'nothing' });
  });

  it('given a frame that is not JSON, then -32700 with id null and one sentence', () => {
    const outcome = decideFrame('{"jsonrpc":"2.0","id":1,');
    expect(outcome).toEqual({
      kind: 'answer',
      answer: {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32700, message: expect.stringMatching(/^Parse error: the frame is not JSON \(.+\)\.$/) },
      },
    });
  });

  it('given JSON that is not a JSON-RPC message, then -32600', () => {
    expect(decideFrame('[1,2]')).toEqual({
      kind: 'answer',
      answer: expect.objectContaining({ id: null, error: expect.objectContaining({ code: -32600 }) }),
    });
    expect(decideFrame('{"jsonrpc":"1.0","id":4,"method":"ping"}')).toEqual({
      kind: 'answer',
      answer: expect.objectContaining({ id: 4, error: expect.objectContaining({ code: -32600 }) }),
    });
  });

  it("given bad params of a known method, then -32602 with the request's id and one sentence naming the field", () => {
    const outcome = decideFrame(call({ name: 5 }, 'req-1'));
    expect(outcome).toEqual({
      kind: 'answer',
      answer: {
        jsonrpc: '2.0',
        id: 'req-1',
        error: {
          code: -32602,
          message: 'Invalid params of tools/call: params.name: Invalid input: expected string, received number.',
        },
      },
    });
    if (outcome.kind === 'answer') expect(outcome.answer.error.message).not.toContain('\n');
    expect(decideFrame(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'resources/read', params: {} }))).toEqual({
      kind: 'answer',
      answer: expect.objectContaining({
        id: 3,
        error: expect.objectContaining({ code: -32602, message: expect.stringContaining('params.uri') }),
      }),
    });
  });

  it('given a __proto__ key anywhere in a request, then -32602 naming its path, never handed on', () => {
    const frame =
      '{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"send_message","arguments":{"target":"lead","message":"hi","__proto__":{"x":1}}}}';
    expect(decideFrame(frame)).toEqual({
      kind: 'answer',
      answer: {
        jsonrpc: '2.0',
        id: 9,
        error: {
          code: -32602,
          message:
            'Invalid params: params.arguments.__proto__ is not a key any teamlog method accepts; nothing was done.',
        },
      },
    });
  });

  it('given a bad notification, then no answer (JSON-RPC answers no notification)', () => {
    expect(decideFrame('{"jsonrpc":"2.0","method":"notifications/initialized","params":{"__proto__":1}}')).toEqual({
      kind: 'nothing',
    });
  });
});

describe('idOfTruncatedFrame', () => {
  it('finds the id at the start or the end of the top-level object, else null', () => {
    expect(idOfTruncatedFrame('{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"na', '')).toBe(12);
    expect(
      idOfTruncatedFrame(
        '{"method":"tools/call","params":{"name":"x","arguments":{"message":"aaaa',
        'aaaa"}},"jsonrpc":"2.0","id":"r-3"}',
      ),
    ).toBe('r-3');
    expect(idOfTruncatedFrame('{"method":"tools/call","params":{"x":{"id":4', 'aaa"}}}')).toBeNull();
  });
});
