import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LogTail, SessionLogRejected, openSessionLog, readSessionLog } from '../src';
import { encodeZstdFrame, initZstdEncoder } from '../src/zstd-frame-encoder';
import { fixturesRoot, linesOf } from './follow-support';

const v0Lead = join(fixturesRoot, 'synthetic/v0-mailbox/v0-lead/session.jsonl');
const crafted = (name: string): string => join(fixturesRoot, 'crafted', name);

let directory: string;
beforeEach(async () => {
  directory = await fs.mkdtemp(join(tmpdir(), 'teamlog-tail-'));
});
afterEach(async () => {
  await fs.rm(directory, { recursive: true, force: true });
});

const openTail = async (file: string): Promise<LogTail> => new LogTail((await openSessionLog(file)).head);

const seqsRead = async (tail: LogTail): Promise<number[]> => {
  const seqs: number[] = [];
  await tail.read(async (events) => {
    seqs.push(...events.map(({ event }) => event.seq));
  });
  return seqs;
};

describe('a log tail', () => {
  it('reads only what was appended since its last read, complete lines only', async () => {
    const lines = linesOf(v0Lead);
    const file = join(directory, 'session.jsonl');
    await fs.writeFile(file, lines.slice(0, 4).join(''));
    const tail = await openTail(file);
    expect(await seqsRead(tail)).toEqual([0, 1, 2]);
    await fs.appendFile(file, `${lines[4]}${(lines[5] as string).slice(0, 10)}`);
    expect(await seqsRead(tail)).toEqual([3]);
    expect(tail.consumed).toBe(Buffer.byteLength(lines.slice(0, 5).join('')));
    // Bytes already read are not read again: an in-place edit of them goes unseen by the tail.
    const handle = await fs.open(file, 'r+');
    await handle.write(Buffer.from('X'), 0, 1, Buffer.byteLength(lines[0] as string) + 2);
    await handle.close();
    await fs.appendFile(file, `${(lines[5] as string).slice(10)}${lines[6]}`);
    expect(await seqsRead(tail)).toEqual([4, 5]);
    expect(await seqsRead(tail)).toEqual([]);
  });

  it('keeps exactly the events a read of the whole final file keeps', async () => {
    const lines = linesOf(v0Lead);
    const file = join(directory, 'session.jsonl');
    await fs.writeFile(file, lines[0] as string);
    const tail = await openTail(file);
    const seqs: number[] = [];
    for (const line of lines.slice(1)) {
      await fs.appendFile(file, line.slice(0, 7));
      seqs.push(...(await seqsRead(tail)));
      await fs.appendFile(file, line.slice(7));
      seqs.push(...(await seqsRead(tail)));
    }
    const whole = await readSessionLog(file);
    expect(seqs).toEqual(whole.events.map(({ event }) => event.seq));
    expect(tail.keptEvents).toBe(whole.summary.events);
  });

  it('waits for a zstd frame the writer is still writing, and reads it once it is whole', async () => {
    await initZstdEncoder();
    const lines = linesOf(v0Lead);
    const file = join(directory, 'session.jsonl.zstd');
    await fs.writeFile(file, encodeZstdFrame(Buffer.from(lines.slice(0, 3).join(''))));
    const tail = await openTail(file);
    expect(await seqsRead(tail)).toEqual([0, 1]);
    const frame = encodeZstdFrame(Buffer.from(lines.slice(3, 6).join('')));
    await fs.appendFile(file, frame.subarray(0, frame.length - 3));
    expect(await seqsRead(tail)).toEqual([]);
    await fs.appendFile(file, frame.subarray(frame.length - 3));
    expect(await seqsRead(tail)).toEqual([2, 3, 4]);
    // A line may span frames: its first part waits for the rest.
    const text = lines.slice(6, 8).join('');
    await fs.appendFile(file, encodeZstdFrame(Buffer.from(text.slice(0, text.length - 20))));
    expect(await seqsRead(tail)).toEqual([5]);
    await fs.appendFile(file, encodeZstdFrame(Buffer.from(text.slice(text.length - 20))));
    expect(await seqsRead(tail)).toEqual([6]);
  });

  it('refuses a corrupt frame, naming the file', async () => {
    await initZstdEncoder();
    const file = join(directory, 'session.jsonl.zstd');
    const lines = linesOf(v0Lead);
    await fs.writeFile(file, encodeZstdFrame(Buffer.from(lines.slice(0, 2).join(''))));
    await fs.copyFile(file, file.replace('.zstd', '.2.zstd'));
    const tail = await openTail(file);
    await seqsRead(tail);
    const frame = Buffer.from(encodeZstdFrame(Buffer.from(lines.slice(2, 4).join(''))));
    frame.writeUInt8((frame.at(-1) as number) ^ 0xff, frame.length - 1); // the checksum no longer matches
    await fs.appendFile(file, frame);
    await expect(seqsRead(tail)).rejects.toMatchObject({
      reason: 'corrupt-frame',
      message: expect.stringMatching(
        /session\.jsonl\.zstd.*zstd frame 2 at byte \d+: decompression failed: checksum mismatch/,
      ),
    });
    const garbage = await openTail(file.replace('.zstd', '.2.zstd'));
    await fs.appendFile(file.replace('.zstd', '.2.zstd'), Buffer.from('not a frame at all'));
    await expect(seqsRead(garbage)).rejects.toThrow(SessionLogRejected);
  });

  it('refuses a file whose header line was rewritten', async () => {
    const lines = linesOf(v0Lead);
    const file = join(directory, 'session.jsonl');
    await fs.writeFile(file, lines.slice(0, 3).join(''));
    const tail = new LogTail({
      ...(await openSessionLog(file)).head,
      rawHeader: { type: 'session', version: 0, id: 'someone-else' },
    });
    await expect(seqsRead(tail)).rejects.toThrow(/its header line differs from the one it was opened with/);
  });

  it('applies the recovery rule as a whole read does: stops at a seq gap, rejects a damaged history', async () => {
    const gap = await openTail(crafted('gap-no-turn-end/session.jsonl'));
    const whole = await readSessionLog(crafted('gap-no-turn-end/session.jsonl'));
    expect(await seqsRead(gap)).toEqual(whole.events.map(({ event }) => event.seq));
    expect(gap.stopped).toMatchObject({ reason: whole.summary.recovery?.reason, line: whole.summary.recovery?.line });
    await expect(seqsRead(await openTail(crafted('gap-then-turn-end/session.jsonl')))).rejects.toMatchObject({
      reason: 'damaged-history',
    });
  });
});
