import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileLineBatches, parseEveryLine } from '../src/json-parse-baseline';
import { tempDirectory } from './temp-directory';

describe('JSON.parse baseline', () => {
  const temp = tempDirectory();
  afterAll(() => temp.remove());

  it('splits lines longer than a read chunk whole, as the reader does', async () => {
    const file = join(temp.path, 'long.jsonl');
    const long = JSON.stringify({ text: 'x'.repeat(3 * 1024 * 1024) });
    writeFileSync(file, `{"a":1}\n${long}\n{"b":2}\n`);
    const lines: string[] = [];
    for await (const batch of fileLineBatches(file)) lines.push(...batch.map((line) => line.toString('utf8')));
    expect(lines).toEqual(['{"a":1}', long, '{"b":2}']);
  });

  it('parses every line of every session log under a root and counts the events after each header', async () => {
    const root = join(temp.path, 'root');
    for (const [session, events] of [
      ['s-1', 3],
      ['s-2', 5],
    ] as const) {
      mkdirSync(join(root, session), { recursive: true });
      const header = { type: 'session', version: 4, id: session, createdAt: 0, isSeeded: false, delegationDepth: 0 };
      const lines = [
        header,
        ...Array.from({ length: events }, (_, seq) => ({ type: 'turn/start', seq, time: seq, data: { turn: seq } })),
      ];
      writeFileSync(join(root, session, 'session.v4.jsonl'), lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
    }
    writeFileSync(join(root, 'notes.txt'), 'not a log');
    expect(await parseEveryLine(root)).toMatchObject({ files: 2, lines: 10, events: 8 });
  });

  it('fails on a line that is not JSON', async () => {
    const root = join(temp.path, 'bad');
    mkdirSync(join(root, 's'), { recursive: true });
    writeFileSync(join(root, 's', 'session.v4.jsonl'), '{"type":"session"}\n{"type":\n');
    await expect(parseEveryLine(root)).rejects.toThrow(SyntaxError);
  });
});
