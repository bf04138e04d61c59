import { isBlankLine } from '../src/blank-line';
import { EventLineProcessor } from '../src/event-line-processor';
import { SplitLine } from '../src/line-splitter';
import { SessionLogRejected } from '../src/session-log-errors';

const line = (number: number, text: string): SplitLine => {
  const bytes = Buffer.from(text);
  return new SplitLine(number, bytes, 0, bytes.length);
};
const blankRun = (number: number, lines: number): SplitLine =>
  new SplitLine(number, Buffer.alloc(0), 0, 0, 'unproven', undefined, lines);
const eventLine = (number: number, seq: number, type = 'turn/start') =>
  line(number, JSON.stringify({ type, seq, time: 1, data: type === 'turn/start' ? { turn: 1 } : {} }));

describe('blank and whitespace-only lines (docs/rules.md#blank-lines)', () => {
  it('tells a line of JSON whitespace (or nothing) from a line with a value', () => {
    for (const text of ['', ' ', '\t', '\r', '  \t \r ']) expect(isBlankLine(Buffer.from(text))).toBe(true);
    for (const text of ['{}', ' {}', '\u00a0', '0', 'x', ' \u000b '])
      expect(isBlankLine(Buffer.from(text))).toBe(false);
  });

  it('reads a flood of blank lines without calling JSON.parse once', () => {
    const processor = new EventLineProcessor('blank.jsonl', 4, false);
    expect(processor.process(eventLine(2, 0))).toHaveLength(1);
    const parse = jest.spyOn(JSON, 'parse');
    try {
      let kept = 0;
      for (let number = 3; number < 20_003; number += 1)
        kept += processor.process(line(number, number % 2 === 0 ? '' : ' \r')).length;
      expect(kept).toBe(0);
      expect(parse).not.toHaveBeenCalled();
    } finally {
      parse.mockRestore();
    }
    expect(processor.finish(undefined)).toMatchObject({
      reason: 'unparsable-line',
      line: 3,
      detail: 'the line is blank (no JSON value)',
      keptEvents: 1,
      droppedLines: 20_000,
    });
  });

  it('takes a run of blank lines from the splitter as that many dropped lines', () => {
    const processor = new EventLineProcessor('blank.jsonl', 4, false);
    processor.process(eventLine(2, 0));
    expect(processor.process(blankRun(3, 500_000))).toEqual([]);
    expect(processor.process(blankRun(500_003, 7))).toEqual([]);
    expect(processor.process(eventLine(500_010, 1))).toEqual([]);
    expect(processor.finish(undefined)).toMatchObject({
      reason: 'unparsable-line',
      line: 3,
      keptEvents: 1,
      droppedLines: 500_008,
    });
  });

  it('stops accepting at a blank line, so a turn/end after it rejects the file naming both lines', () => {
    const processor = new EventLineProcessor('blank.jsonl', 4, false);
    processor.process(eventLine(2, 0));
    processor.process(line(3, '   '));
    expect(() => processor.process(eventLine(4, 1, 'turn/end'))).toThrow(SessionLogRejected);
    expect(() => processor.process(eventLine(5, 2, 'turn/end'))).toThrow(
      /line is blank.*a turn\/end follows at line 5/,
    );
  });
});
