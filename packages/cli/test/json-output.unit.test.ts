import { writeJsonDrained } from '../src/json-output';
import { capturedIo } from './captured-io';

describe('a large JSON document written to stdout', () => {
  const document = {
    teams: [{ legacyMessages: Array.from({ length: 2000 }, (_, id) => ({ id, text: 'x'.repeat(200) })) }],
  };

  it('waits for stdout to drain after each run, so the document never waits in memory whole, and writes it exactly', async () => {
    const events: string[] = [];
    const written: string[] = [];
    const io = capturedIo({
      stdout: (text) => {
        written.push(text);
        events.push('write');
      },
      stdoutDrained: async () => void events.push('drained'),
    });
    await writeJsonDrained(io, document);
    expect(written.join('')).toBe(`${JSON.stringify(document, null, 2)}\n`);
    expect(written.length).toBeGreaterThan(5);
    expect(events).toEqual(written.flatMap(() => ['write', 'drained']));
  });
});
