import { PassThrough } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { StdioFrameTransport } from '@teamlog/tools';

/* The transport cuts a byte stream into frames whatever the chunking, and a bad frame never stops it. */

const started = async (maxFrameBytes: number) => {
  const input = new PassThrough();
  const output = new PassThrough();
  const answers: unknown[] = [];
  let text = '';
  output.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
    const lines = text.split('\n');
    text = lines.pop() ?? '';
    answers.push(...lines.map((line) => JSON.parse(line) as unknown));
  });
  const messages: JSONRPCMessage[] = [];
  let closed = false;
  const transport = new StdioFrameTransport(input, output, { maxFrameBytes });
  transport.onmessage = (message) => void messages.push(message);
  transport.onclose = () => void (closed = true);
  await transport.start();
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  return { input, answers, messages, closed: () => closed, transport, settle };
};

const ping = (id: number) => `${JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' })}\n`;

describe('StdioFrameTransport', () => {
  it('given frames split across chunks and several in one chunk, then each message is handed on whole, in order', async () => {
    const { input, messages, settle } = await started(1024);
    const both = ping(1) + ping(2);
    input.write(both.slice(0, 10));
    input.write(both.slice(10) + ping(3).slice(0, 5));
    input.write(ping(3).slice(5));
    await settle();
    expect(messages.map((message) => ('id' in message ? message.id : undefined))).toEqual([1, 2, 3]);
  });

  it('given a frame over the limit, then a JSON-RPC error with its id, and the next frame is served', async () => {
    const { input, answers, messages, closed, settle } = await started(100);
    const big = `${JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'send_message', arguments: { target: 'lead', message: 'x'.repeat(500) } } })}\n`;
    for (let at = 0; at < big.length; at += 37) input.write(big.slice(at, at + 37));
    input.write(ping(6));
    await settle();
    expect(answers).toEqual([
      { jsonrpc: '2.0', id: 5, error: { code: -32600, message: expect.stringContaining('longer than 100 bytes') } },
    ]);
    expect(messages.map((message) => ('id' in message ? message.id : undefined))).toEqual([6]);
    expect(closed()).toBe(false);
  });

  it('given an unparsable frame, then -32700 and the next frame is served', async () => {
    const { input, answers, messages, settle } = await started(1024);
    input.write(`not json\n${ping(8)}`);
    await settle();
    expect(answers).toEqual([
      { jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.stringMatching(/^Parse error/) } },
    ]);
    expect(messages).toHaveLength(1);
  });

  it('closes once, telling the server', async () => {
    const { transport, closed } = await started(1024);
    await transport.close();
    await transport.close();
    expect(closed()).toBe(true);
  });
});
