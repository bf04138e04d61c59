import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { dataMemberSpan, dataMemberText } from '../src/data-member-span';
import { realSessionLogs } from './real-logs';

const textOf = (line: string): string | undefined => dataMemberText(Buffer.from(line, 'utf8'));

describe("an event line's data member as the line holds it (docs/rules.md#stored-data-bytes)", () => {
  it('is the exact text of the value, spacing, escapes and number spellings kept', () => {
    expect(textOf('{"type":"x","seq":0,"time":1,"data":{"a" : 1.50, "b":"\\u00e9\\/"}}')).toBe(
      '{"a" : 1.50, "b":"\\u00e9\\/"}',
    );
    expect(textOf(' { "data" :\t[1, {"}":"]"}] ,"type":"x"}\r')).toBe('[1, {"}":"]"}]');
    expect(textOf('{"type":"x","data":12345678901234567890}')).toBe('12345678901234567890');
    expect(textOf('{"type":"x","data":"a \\"quoted\\" \\\\"}')).toBe('"a \\"quoted\\" \\\\"');
    expect(textOf('{"data":null}')).toBe('null');
    expect(textOf('{"type":"é ✓ 𝄞","data":{"t":"𝄞"}}')).toBe('{"t":"𝄞"}');
  });

  it('is the last data member when the key is given twice, the one JSON.parse keeps', () => {
    expect(textOf('{"data":1,"type":"x","data":{"kept":true}}')).toBe('{"kept":true}');
  });

  it('finds a key written with escapes, and not a key that only contains "data"', () => {
    expect(textOf('{"d\\u0061ta":[2]}')).toBe('[2]');
    expect(textOf('{"datas":1,"type":"data"}')).toBeUndefined();
    expect(textOf('{"x":{"data":1}}')).toBeUndefined();
  });

  it('answers nothing for a line that is not an object with a data member', () => {
    for (const line of ['[]', '"data"', '{}', '{"type":"x"}', '{"data":', '{"data":1', 'null'])
      expect(dataMemberSpan(Buffer.from(line))).toBeUndefined();
  });

  it('reads the bytes where they lie in a larger buffer', () => {
    const buffer = Buffer.from('xx{"data":[1]}yy');
    expect(dataMemberText(buffer.subarray(2, 14))).toBe('[1]');
    expect(dataMemberText(new Uint8Array(buffer.buffer, buffer.byteOffset + 2, 12))).toBe('[1]');
  });

  it('parses to the data JSON.parse finds, for generated lines of any spacing', () => {
    const spacing = fc.constantFrom('', ' ', '\t', '\r\n ');
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.jsonValue(), spacing, (others, data, space) => {
        const entries = [...Object.entries(others).filter(([key]) => key !== 'data'), ['data', data] as const];
        const line = `{${space}${entries
          .map(([key, value]) => `${JSON.stringify(key)}${space}:${space}${JSON.stringify(value, null, space)}`)
          .join(`${space},${space}`)}${space}}`;
        const text = textOf(line);
        expect(text).toBeDefined();
        expect(JSON.parse(text as string)).toEqual((JSON.parse(line) as { data: unknown }).data);
      }),
    );
  });

  it('is the data of every event line of the real logs, byte for byte where the writer wrote it', () => {
    let checked = 0;
    for (const file of realSessionLogs) {
      for (const line of readFileSync(file, 'utf8').split('\n').slice(1)) {
        let value: { data?: unknown };
        try {
          value = JSON.parse(line) as { data?: unknown };
        } catch {
          continue;
        }
        if (typeof value !== 'object' || value === null || !('data' in value)) continue;
        const text = textOf(line);
        expect(JSON.parse(text as string)).toEqual(value.data);
        if (JSON.stringify(value) === line) expect(text).toBe(JSON.stringify(value.data));
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });
});
