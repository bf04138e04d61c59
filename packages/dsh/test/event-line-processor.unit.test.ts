import { EventLineProcessor } from '../src/event-line-processor';
import { type ProvenText, SplitLine } from '../src/line-splitter';

const eventText = (seq: number): string => JSON.stringify({ type: 'turn/start', seq, time: 1, data: { turn: 1 } });

/** A line as the splitter hands it on: a range of a larger read buffer. */
const lineOf = (number: number, bytes: Buffer, text: ProvenText): SplitLine => {
  const read = Buffer.concat([Buffer.from('xx\n'), bytes, Buffer.from('\nyy')]);
  return new SplitLine(number, read, 3, 3 + bytes.length, text);
};

describe('the event line processor reading a line from its read buffer', () => {
  it('parses a line its read proved valid UTF-8 from the range, and hands on its bytes and length', () => {
    const bytes = Buffer.from(eventText(0));
    const [event] = new EventLineProcessor('log.jsonl', 4, false).process(lineOf(2, bytes, 'utf8'));
    expect(event?.event).toMatchObject({ type: 'turn/start', seq: 0, data: { turn: 1 } });
    expect(event?.lineLength).toBe(bytes.length);
    expect(Buffer.from(event?.lineBytes ?? []).equals(bytes)).toBe(true);
  });

  it('drops a byte order mark at the start of an event line, as the fatal decoder does', () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(eventText(0))]);
    for (const text of ['utf8', 'unproven'] as const)
      expect(new EventLineProcessor('log.jsonl', 4, false).process(lineOf(2, bytes, text))).toHaveLength(1);
  });

  it('finds a line that is not UTF-8 when its read was not proved valid', () => {
    const processor = new EventLineProcessor('log.jsonl', 4, false);
    processor.process(lineOf(2, Buffer.from(eventText(0)), 'utf8'));
    const broken = Buffer.concat([Buffer.from('{"type":"'), Buffer.from([0xff]), Buffer.from('"}')]);
    expect(processor.process(lineOf(3, broken, 'unproven'))).toEqual([]);
    expect(processor.finish(undefined)).toMatchObject({ line: 3, detail: 'the line is not valid UTF-8' });
  });

  it('reads a line its read proved ASCII as the same event a UTF-8 decode gives', () => {
    // An escape in ASCII text: the parsed string is not ASCII.
    const bytes = Buffer.from('{"type":"turn/start","seq":0,"time":1,"data":{"turn":1,"note":"a\\u00e9"}}');
    const [ascii] = new EventLineProcessor('log.jsonl', 4, false).process(lineOf(2, bytes, 'ascii'));
    const [utf8] = new EventLineProcessor('log.jsonl', 4, false).process(lineOf(2, bytes, 'utf8'));
    expect(ascii?.event).toEqual(utf8?.event);
    expect(ascii?.event.data).toEqual({ turn: 1, note: 'a\u00e9' });
  });
});
