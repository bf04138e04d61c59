import * as fc from 'fast-check';
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { SessionId } from '@teamlog/events';
import { sessionHeaderStream, sessionStream } from '@teamlog/store';
import { craftedRoot } from './crafted-fixtures';
import { openTempStore, realLogsRoot } from './real-logs';
import { zstdRleBomb } from './zstd-bomb';
import { type FileImportResult, importSessionLog, readSessionLog } from '../src';

/*
 * Property test: mutate real logs (truncate, flip bytes, drop fields, wrong types, duplicate a
 * seq, invalid UTF-8) and check that the import never crashes or hangs, that every error names
 * the file and line (and the field when a field is at fault), and that nothing is imported
 * partially: a rejected file writes nothing, an accepted one writes exactly what the reader keeps.
 * Fixed seed and bounded case count.
 */

const bases = [
  {
    name: 'v0-packed',
    file: join(realLogsRoot, 'mirror-toninfo/examples/acp-agent/tests/snapshots/packed-chunks/session.jsonl'),
    zstd: false,
  },
  {
    name: 'v0-sources',
    file: join(realLogsRoot, 'mirror-toninfo/scripts/snapshots/python-sdk-single-exe/advanced/session.1.jsonl'),
    zstd: false,
  },
  {
    name: 'v4-normalised',
    file: join(realLogsRoot, 'index-1394225561/snapshots/session/team-direct-inbox/session.v4.jsonl'),
    zstd: false,
  },
  { name: 'v4-zstd', file: join(craftedRoot, 'zstd-cli/session.v4.jsonl.zstd'), zstd: true },
];

type Mutation =
  | { readonly kind: 'truncate'; readonly at: number }
  | { readonly kind: 'flip'; readonly at: number; readonly mask: number }
  | { readonly kind: 'drop'; readonly line: number; readonly field: string }
  | { readonly kind: 'wrong'; readonly line: number; readonly field: string; readonly value: unknown }
  | { readonly kind: 'duplicate'; readonly line: number }
  | { readonly kind: 'utf8'; readonly line: number };

const byteMutation = fc.oneof(
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), mask: fc.integer({ min: 1, max: 255 }) }),
);
const lineMutation = fc.oneof(
  fc.record({
    kind: fc.constant('drop' as const),
    line: fc.nat(),
    field: fc.constantFrom('type', 'seq', 'time', 'data', 'data.turn', 'data.id', 'data.content', 'data.reason'),
  }),
  fc.record({
    kind: fc.constant('wrong' as const),
    line: fc.nat(),
    field: fc.constantFrom('type', 'seq', 'time', 'data', 'data.turn', 'data.step'),
    value: fc.constantFrom<unknown>('x', -1, 1.5, null, [], {}),
  }),
  fc.record({ kind: fc.constant('duplicate' as const), line: fc.nat() }),
  fc.record({ kind: fc.constant('utf8' as const), line: fc.nat() }),
);

const setPath = (record: Record<string, unknown>, path: string, value: unknown | undefined): void => {
  const keys = path.split('.');
  let target: unknown = record;
  for (const key of keys.slice(0, -1))
    target = typeof target === 'object' && target !== null ? (target as Record<string, unknown>)[key] : undefined;
  if (typeof target !== 'object' || target === null || Array.isArray(target)) return;
  const last = keys[keys.length - 1] as string;
  if (value === undefined) delete (target as Record<string, unknown>)[last];
  else (target as Record<string, unknown>)[last] = value;
};

/** The mutated bytes and the 1-based line a line mutation touched. */
const mutate = (bytes: Buffer, mutation: Mutation): { bytes: Buffer; line?: number } => {
  switch (mutation.kind) {
    case 'truncate':
      return { bytes: bytes.subarray(0, mutation.at % (bytes.length + 1)) };
    case 'flip': {
      const copy = Buffer.from(bytes);
      const at = mutation.at % copy.length;
      copy[at] = (copy[at] as number) ^ mutation.mask;
      return { bytes: copy };
    }
    default: {
      const lines = bytes.toString('utf8').split('\n');
      const index = mutation.line % (lines.length - 1);
      const original = lines[index] as string;
      if (mutation.kind === 'duplicate') {
        lines.splice(index, 0, original);
        return { bytes: Buffer.from(lines.join('\n')), line: index + 2 };
      }
      if (mutation.kind === 'utf8') {
        const line = Buffer.from(original);
        const at = Math.floor(line.length / 2);
        const broken = Buffer.concat([line.subarray(0, at), Buffer.from([0xc3, 0x28, 0xff]), line.subarray(at)]);
        const before = Buffer.from(
          lines
            .slice(0, index)
            .map((text) => `${text}\n`)
            .join(''),
        );
        const after = Buffer.from(
          lines
            .slice(index + 1)
            .map((text) => `\n${text}`)
            .join(''),
        );
        return { bytes: Buffer.concat([before, broken, after]), line: index + 1 };
      }
      const record = JSON.parse(original) as Record<string, unknown>;
      setPath(record, mutation.field, mutation.kind === 'drop' ? undefined : mutation.value);
      lines[index] = JSON.stringify(record);
      return { bytes: Buffer.from(lines.join('\n')), line: index + 1 };
    }
  }
};

const checkImport = async (
  file: string,
  result: FileImportResult,
  mutation: Mutation,
  mutatedLine: number | undefined,
  streams: () => string[],
): Promise<void> => {
  if (result.rejected !== undefined) {
    const { rejected } = result;
    expect(rejected.message).toContain(file);
    if (rejected.reason !== 'corrupt-frame') {
      expect(rejected.line).toBeGreaterThanOrEqual(1);
      expect(rejected.message).toContain(`:line ${rejected.line}`);
    }
    if (rejected.reason === 'invalid-event' || rejected.reason === 'invalid-header') {
      expect(rejected.path).toBeDefined();
      expect(rejected.message).toContain(`${rejected.path}: `);
    }
    if (
      (mutation.kind === 'drop' || mutation.kind === 'wrong') &&
      rejected.line === mutatedLine &&
      rejected.reason !== 'not-a-session-log'
    ) {
      expect(rejected.message).toContain(mutation.field.split('.').pop());
    }
    // Nothing of a rejected file is imported.
    expect(streams()).toEqual([]);
    return;
  }
  if (result.recovery !== null) {
    expect(result.recovery.line).toBeGreaterThanOrEqual(2);
    expect(result.recovery.detail.length).toBeGreaterThan(0);
    expect(result.recovery.keptEvents).toBe(result.events);
    if (
      (mutation.kind === 'drop' || mutation.kind === 'wrong') &&
      result.recovery.line === mutatedLine &&
      result.recovery.reason === 'unparsable-line'
    ) {
      expect(result.recovery.detail).toContain(mutation.field.split('.').pop());
    }
  }
};

describe('bad input: mutated real logs', () => {
  it('never crashes or hangs, names file, line and field, and imports all or nothing', async () => {
    const temp = await openTempStore();
    const originals = await Promise.all(bases.map((base) => fs.readFile(base.file)));
    let cases = 0;
    const outcomes: string[] = [];
    try {
      await fc.assert(
        fc.asyncProperty(
          fc
            .integer({ min: 0, max: bases.length - 1 })
            .chain((baseIndex) =>
              fc.tuple(
                fc.constant(baseIndex),
                (bases[baseIndex] as (typeof bases)[number]).zstd ? byteMutation : fc.oneof(byteMutation, lineMutation),
              ),
            ),
          async ([baseIndex, mutation]) => {
            cases += 1;
            const base = bases[baseIndex] as (typeof bases)[number];
            const { bytes, line } = mutate(originals[baseIndex] as Buffer, mutation as Mutation);
            const caseDirectory = join(temp.directory, `case-${cases}`);
            await fs.mkdir(caseDirectory);
            const file = join(caseDirectory, base.file.split('/').pop() as string);
            await fs.writeFile(file, bytes);
            const store = (await import('@teamlog/store-sqlite')).SqliteEventStore.open(
              join(caseDirectory, 'events.sqlite'),
            );
            try {
              const result = await importSessionLog(file, store);
              outcomes.push(result.rejected?.reason ?? result.recovery?.reason ?? 'imported');
              await checkImport(file, result, mutation as Mutation, line, () =>
                store.listStreams().map((stream) => stream.streamName),
              );
              if (result.rejected === undefined) {
                const key = result.streamSessionId as SessionId;
                const stored: unknown[] = [];
                if ((await store.streamRevision(sessionStream(key))) !== undefined) {
                  for await (const event of store.readStream(sessionStream(key))) stored.push([event.type, event.data]);
                }
                const { events } = await readSessionLog(file);
                expect(stored).toEqual(events.map((event) => [event.event.type, event.event.data]));
                expect(await store.streamRevision(sessionHeaderStream(key))).toBe(0n);
              }
            } finally {
              await store.close();
              await fs.rm(caseDirectory, { recursive: true, force: true });
            }
          },
        ),
        { seed: 20261130, numRuns: 60, timeout: 10_000 },
      );
    } finally {
      await temp.dispose();
    }
    expect(cases).toBeGreaterThanOrEqual(60);
    // The mutations reach many paths: rejections of several kinds, recoveries and clean imports.
    expect(new Set(outcomes).size).toBeGreaterThanOrEqual(5);
  });

  // Two imports of a 50 MB line: a generous limit against a hang, so a busy CI machine does not fail it.
  it('imports a log with a 50 MB line, and with a small line limit reports it by line instead of buffering it', async () => {
    const temp = await openTempStore();
    try {
      const text = await fs.readFile(bases[0]?.file as string, 'utf8');
      const lines = text.split('\n');
      const index = lines.findIndex((line) => line.includes('"type":"user/message"'));
      const record = JSON.parse(lines[index] as string) as { data: { content: Array<{ text: string }> } };
      (record.data.content[0] as { text: string }).text = 'z'.repeat(50 * 1024 * 1024);
      lines[index] = JSON.stringify(record);
      const file = join(temp.directory, 'session.jsonl');
      await fs.writeFile(file, lines.join('\n'));
      const result = await importSessionLog(file, temp.store);
      expect(result.rejected).toBeUndefined();
      expect(result.recovery).toBeNull();

      const other = await openTempStore();
      try {
        const limited = await importSessionLog(file, other.store, { maxLineBytes: 1024 * 1024 });
        expect(limited.rejected).toMatchObject({ reason: 'over-limit', line: index + 1 });
        expect(limited.rejected?.message).toMatch(/more than the reader's limit of 1048576; nothing was imported/);
        expect(other.store.listStreams()).toEqual([]);
      } finally {
        await other.dispose();
      }
    } finally {
      await temp.dispose();
    }
  }, 120_000);

  it('reports invalid UTF-8 by line', async () => {
    const temp = await openTempStore();
    try {
      const text = Buffer.from(await fs.readFile(bases[0]?.file as string));
      const lines = text.toString('utf8').split('\n');
      const before = Buffer.from(`${lines.slice(0, 3).join('\n')}\n`);
      const broken = Buffer.concat([before, Buffer.from([0xff, 0xfe]), Buffer.from(`${lines.slice(3).join('\n')}`)]);
      const file = join(temp.directory, 'session.jsonl');
      await fs.writeFile(file, broken);
      const result = await importSessionLog(file, temp.store);
      expect(result.rejected).toMatchObject({ reason: 'damaged-history', line: 4 });
      expect(result.rejected?.message).toContain('not valid UTF-8');
    } finally {
      await temp.dispose();
    }
  });

  it('rejects a zstd log that decodes past the frame limit in one line naming the frame, before decoding it, importing nothing', async () => {
    const temp = await openTempStore();
    try {
      const file = join(temp.directory, 'session.v4.jsonl.zstd');
      await fs.writeFile(file, Buffer.concat([await fs.readFile(bases[3]?.file as string), zstdRleBomb(4097)]));
      const result = await importSessionLog(file, temp.store);
      expect(result.rejected).toMatchObject({ reason: 'over-limit' });
      expect(result.rejected?.message).toMatch(
        /^\S+session\.v4\.jsonl\.zstd: zstd frame \d+ at byte \d+: decodes to more than 512 MiB, the reader's limit for one frame; nothing was imported$/,
      );
      expect(temp.store.listStreams()).toEqual([]);
      await expect(readSessionLog(file, { maxFrameBytes: 1024 ** 3, maxDecodedBytes: 256 * 1024 })).rejects.toThrow(
        /the stream decodes to more than 256 KiB, the reader's limit for a file/,
      );
    } finally {
      await temp.dispose();
    }
  });

  it('recovers a log that ends in a flood of blank lines, and rejects one whose blank lines sit inside committed history', async () => {
    const temp = await openTempStore();
    try {
      const lines = (await fs.readFile(bases[0]?.file as string, 'utf8')).split('\n');
      const flood = Array.from({ length: 100_000 }, (_, index) => ['', ' ', '\t', '\r', '  \r'][index % 5] as string);
      const tail = join(temp.directory, 'tail', 'session.jsonl');
      await fs.mkdir(join(temp.directory, 'tail'));
      await fs.writeFile(tail, `${[...lines.slice(0, -1), ...flood].join('\n')}\n`);
      const recovered = await importSessionLog(tail, temp.store);
      expect(recovered.rejected).toBeUndefined();
      expect(recovered.recovery).toMatchObject({
        reason: 'unparsable-line',
        line: lines.length,
        detail: 'the line is blank (no JSON value)',
        droppedLines: 100_000,
      });

      const inside = join(temp.directory, 'inside', 'session.jsonl');
      await fs.mkdir(join(temp.directory, 'inside'));
      await fs.writeFile(inside, [lines[0], lines[1], ...flood, ...lines.slice(2)].join('\n'));
      const other = await openTempStore();
      try {
        const rejected = await importSessionLog(inside, other.store);
        expect(rejected.rejected).toMatchObject({ reason: 'damaged-history', line: 3 });
        expect(rejected.rejected?.message).toContain('the line is blank');
        expect(other.store.listStreams()).toEqual([]);
      } finally {
        await other.dispose();
      }
    } finally {
      await temp.dispose();
    }
  });
});
