import * as fc from 'fast-check';
import type * as t from 'io-ts';
import { isRight } from 'fp-ts/Either';
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { eventCodecs, isCatalogEventType } from '@teamlog/events';
import { datalessEventTypes } from '../src/dataless-event';
import { EventLineScan } from '../src/event-line-scan';
import { tooDeepPath } from '../src/json-depth';
import { SplitLine, provenTextOf } from '../src/line-splitter';
import { plainEventOf } from '../src/storage-record-decoder';

/*
 * The scan is sound: every line it reads, JSON.parse, `plainEventOf`, the depth limit and the
 * catalog codec accept too, and it reads from the line what they do. Checked on every line of
 * every log under fixtures/, on mutations of their conversation lines (a byte changed, cut short,
 * keys repeated or reordered, escapes, deep nesting, odd numbers) and on lines generated from the
 * envelope and the codecs, with fixed seeds. Lines it does not read go the ordinary way, which
 * event-line-processor.unit.test.ts covers.
 */

const repoRoot = resolve(__dirname, '../../..');
const maxDepth = 8;

interface Read {
  readonly type: string;
  readonly seq: number;
  readonly time: number;
  readonly ignorable: true | undefined;
  readonly surfaceOp: unknown;
  readonly sourceEventSeqs: readonly number[] | undefined;
}

/** What the ordinary way reads of a line the scan may read, or undefined when it refuses it (or parses it some other way). */
const ordinaryRead = (text: string): Read | undefined => {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const plain = plainEventOf(value, 4, false);
  if (plain === undefined || !datalessEventTypes.includes(plain.type)) return undefined;
  if (tooDeepPath(value, maxDepth) !== undefined) return undefined;
  const codec = isCatalogEventType(plain.type) ? (eventCodecs[plain.type] as t.Decoder<unknown, unknown>) : undefined;
  if (codec !== undefined && !isRight(codec.decode(plain.data))) return undefined;
  return {
    type: plain.type,
    seq: plain.seq,
    time: plain.time,
    ignorable: plain.ignorable,
    surfaceOp: plain.surfaceOp,
    sourceEventSeqs: plain.sourceEventSeqs,
  };
};

const scan = new EventLineScan(maxDepth);

/** The line as the splitter hands it on: a range of a larger read buffer, its text proven as the splitter proves it. */
const scanned = (text: string): Read | undefined => {
  const bytes = Buffer.from(text);
  const read = Buffer.concat([Buffer.from('{"x":1}\n'), bytes, Buffer.from('\n{"y":2}')]);
  const event = scan.scan(new SplitLine(2, read, 8, 8 + bytes.length, provenTextOf(read)));
  if (event === undefined) return undefined;
  const { type, seq, time, ignorable, surfaceOp, sourceEventSeqs } = event;
  return { type, seq, time, ignorable, surfaceOp, sourceEventSeqs };
};

/** The lines the scan read and the ordinary way did not read alike (empty when it is sound on them). */
const unsound = (texts: readonly string[]): string[] =>
  texts.filter((text) => {
    const read = scanned(text);
    return read !== undefined && JSON.stringify(read) !== JSON.stringify(ordinaryRead(text));
  });

const filesUnder = (directory: string): string[] =>
  readdirSync(directory, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(directory, entry.name)) : [join(directory, entry.name)],
  );

const fixtureLines = filesUnder(join(repoRoot, 'fixtures'))
  .filter((file) => file.endsWith('.jsonl'))
  .flatMap((file) => readFileSync(file, 'utf8').split('\n'));

const conversationLines = fixtureLines.filter((line) => datalessEventTypes.some((type) => line.includes(`"${type}"`)));

/** A few of each type, for the mutations. */
const samples = datalessEventTypes.flatMap((type) =>
  conversationLines.filter((line) => line.includes(`"type":"${type}"`)).slice(0, 3),
);

describe('the byte scan of a conversation line', () => {
  it('reads what JSON.parse and the envelope give on every fixture line it reads, and reads the usual ones', () => {
    expect(unsound(fixtureLines)).toEqual([]);
    const read = conversationLines.filter((line) => scanned(line) !== undefined);
    expect(read.length).toBeGreaterThan(conversationLines.length / 2);
    expect(read.every((line) => ordinaryRead(line) !== undefined)).toBe(true);
  });

  it('reads a generated line as the ordinary way does, whatever its data, numbers and key order', () => {
    const number = fc.oneof(
      fc.nat(),
      fc.integer(),
      fc.double(),
      fc.constantFrom(0, -0, 1e21, 2 ** 53, 2 ** 53 + 2, 123456789012345, 1234567890123456),
    );
    const data = fc.oneof(
      fc.jsonValue({ maxDepth: 12 }),
      fc.record({ turn: number, step: number }),
      fc.record({ turn: fc.nat(), step: fc.nat(), extra: fc.jsonValue() }, { requiredKeys: ['turn'] }),
    );
    const line = fc.record(
      {
        type: fc.constantFrom(...datalessEventTypes, 'turn/start', 'step/start', ''),
        seq: number,
        time: number,
        data,
        ignorable: fc.constantFrom(true, false, null),
        surfaceOp: fc.constantFrom('append', 'replace', { op: 'replace', start: 0, end: 1 }),
        sourceEventSeqs: fc.array(fc.oneof(fc.nat(20), fc.tuple(fc.nat(5), fc.nat(9))), { maxLength: 4 }),
        note: fc.string(),
      },
      { requiredKeys: [] },
    );
    const spacing = fc.constantFrom(undefined, 1, '\t', ' \r');
    fc.assert(
      fc.property(line, spacing, fc.boolean(), (value, space, reversed) => {
        const ordered = reversed ? Object.fromEntries(Object.entries(value).reverse()) : value;
        const text = JSON.stringify(ordered, null, space).replaceAll('\n', '');
        expect(unsound([text])).toEqual([]);
      }),
      { seed: 20, numRuns: 3000 },
    );
  });

  it('reads a mutated line only where the ordinary way reads it alike: bytes changed, cut short, keys repeated, escapes, nesting, numbers', () => {
    const mutations = samples.flatMap((text) => {
      const out: string[] = [];
      for (let at = 0; at < text.length; at += 1) {
        out.push(text.slice(0, at));
        for (const c of ['"', '\\', '{', '}', '[', ']', ',', ':', ' ', '0', '-', 'e', '.', '\u00e9', '\u0001', 'x'])
          out.push(`${text.slice(0, at)}${c}${text.slice(at + 1)}`, `${text.slice(0, at)}${c}${text.slice(at)}`);
      }
      const inner = text.slice(1, -1);
      out.push(
        `{${inner},${inner}}`,
        `{"seq":99,${inner}}`,
        `{${inner},"seq":99}`,
        `{${inner},"type":"step/end"}`,
        `{${inner},"data":{}}`,
        `{${inner},"t\\u0079pe":"x"}`,
        text.replace('"type"', '"t\\u0079pe"'),
        text.replace('"seq"', '"se\\u0071"'),
        text.replace(/"seq":(\d+)/, '"seq":$1.0'),
        text.replace(/"seq":(\d+)/, '"seq":$1e0'),
        text.replace(/"seq":(\d+)/, '"seq":-$1'),
        text.replace(/"seq":(\d+)/, '"seq":0$1'),
        text.replace(/"seq":(\d+)/, '"seq":"$1"'),
        text.replace(/"time":(\d+)/, '"time":$1.5'),
        text.replace(/"time":(\d+)/, '"time":1e400'),
        text.replace(/"time":(\d+)/, '"time":-0'),
        text.replace(/"turn":(\d+)/, '"turn":$1.0'),
        text.replace(/"turn":(\d+)/, '"turn":-1'),
        text.replace(/"turn":(\d+)/, '"turn":9007199254740993'),
        text.replace(/"step":(\d+)/, '"step":1,"step":-1'),
        text.replace(/"step":(\d+)/, '"step":-1,"step":1'),
        text.replace('"data":{', '"data":{"turn":"1",'),
        text.replace('"data":{', `"data":{"deep":${'['.repeat(maxDepth)}${']'.repeat(maxDepth)},`),
        text.replace('"data":{', `"data":{"deep":${'['.repeat(maxDepth - 3)}${']'.repeat(maxDepth - 3)},`),
        text.replace('"data":{', '"data":{"s":"\\ud800\\n\\u00e9\\/",'),
        text.replace('"data":{', '"data":{"s":"\\x",'),
        text.replace('"data":{', '"data":{"__proto__":{"turn":"x"},'),
        text.replace('"data":{', '"data":{"n":[1E+2,-0.0e-0,1e400,true,false,null],'),
        `\ufeff${text}`,
        ` \t${text}\r `,
        `${text}x`,
        `${text}${text}`,
      );
      return out;
    });
    expect(mutations.length).toBeGreaterThan(10_000);
    expect(unsound(mutations)).toEqual([]);
  });
});
