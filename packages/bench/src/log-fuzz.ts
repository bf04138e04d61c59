import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import Database from 'better-sqlite3';
import { type CliIo, runCli } from '@teamlog/cli';
import { type DeterministicRandom, deterministicRandom } from './deterministic-random';

/*
 * Hostile input for `teamlog import`: real logs (raw and zstd) damaged in many ways, each imported
 * into a copy of a store that already holds another log. Checked for every case: the exit code is
 * 0 or 3; a rejected file gives exactly one stderr line naming the file and its line (a corrupt
 * zstd frame, which has no line, names the frame) and no stack trace; a rejected file leaves the
 * store unchanged; and importing the repaired (original) file afterwards gives exactly the store a
 * clean import gives.
 */

const repoRoot = resolve(__dirname, '..', '..', '..');
const realLogs = join(repoRoot, 'fixtures', 'dsh-logs');
const crafted = join(repoRoot, 'fixtures', 'crafted');

interface Base {
  readonly name: string;
  readonly file: string;
  readonly zstd: boolean;
}

export const fuzzBases: readonly Base[] = [
  {
    name: 'session.jsonl',
    file: join(realLogs, 'mirror-toninfo/examples/acp-agent/tests/snapshots/packed-chunks/session.jsonl'),
    zstd: false,
  },
  {
    name: 'session.1.jsonl',
    file: join(realLogs, 'mirror-toninfo/scripts/snapshots/python-sdk-single-exe/advanced/session.1.jsonl'),
    zstd: false,
  },
  {
    name: 'session.v4.jsonl',
    file: join(repoRoot, 'fixtures/synthetic/v4-late-delivery/late-lead/session.v4.jsonl'),
    zstd: false,
  },
  { name: 'session.v4.jsonl.zstd', file: join(crafted, 'zstd-cli/session.v4.jsonl.zstd'), zstd: true },
];
const unrelated = join(repoRoot, 'fixtures/synthetic/v4-late-delivery/late-analyst/session.v4.jsonl');

type LineMutation = (lines: string[], random: DeterministicRandom) => string[];
type ByteMutation = (bytes: Buffer, random: DeterministicRandom) => Buffer;

const pick = <A>(items: readonly A[], random: DeterministicRandom): A => items[random.below(items.length)] as A;
/** An event line (never the header) of a log of `lines` (the last entry is the empty text after the final newline). */
const eventLine = (lines: readonly string[], random: DeterministicRandom): number =>
  1 + random.below(Math.max(1, lines.length - 2));
const nested = (depth: number): string => `${'['.repeat(depth)}0${']'.repeat(depth)}`;
/** Blank and whitespace-only lines (docs/rules.md#blank-lines). */
const blankFlood = (random: DeterministicRandom): string[] =>
  Array.from(
    { length: 20_000 + random.below(30_000) },
    (_, index) => ['', ' ', '\t', '\r', ' \t\r '][index % 5] as string,
  );

/**
 * A zstd frame of RLE blocks of 128 KiB (4 bytes each) that can decode to more than the reader's
 * frame limit of 512 MiB from 16 KiB of file: a decompression bomb (docs/rules.md#zstd-decode-bound).
 */
const zstdBomb = (): Buffer => {
  const blocks = 4097;
  const body = Buffer.alloc(blocks * 4);
  for (let index = 0; index < blocks; index += 1) {
    body.writeUIntLE(((128 * 1024) << 3) | (1 << 1) | (index === blocks - 1 ? 1 : 0), index * 4, 3);
    body[index * 4 + 3] = 0x20;
  }
  return Buffer.concat([Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x00, 7 << 3]), body]);
};

const editJson = (line: string, edit: (record: Record<string, unknown>) => void): string => {
  try {
    const record = JSON.parse(line) as Record<string, unknown>;
    edit(record);
    return JSON.stringify(record);
  } catch {
    return line;
  }
};
const onLine =
  (edit: (line: string, random: DeterministicRandom, lines: string[]) => string): LineMutation =>
  (lines, random) => {
    const copy = [...lines];
    const at = eventLine(copy, random);
    copy[at] = edit(copy[at] as string, random, copy);
    return copy;
  };
const dataOf = (record: Record<string, unknown>): Record<string, unknown> =>
  typeof record.data === 'object' && record.data !== null ? (record.data as Record<string, unknown>) : {};

/** The kinds of damage; line mutations apply to raw logs, byte mutations to both. */
export const lineMutations: Readonly<Record<string, LineMutation>> = {
  'drop-field': onLine((line, random) =>
    editJson(line, (record) => void delete record[pick(['type', 'seq', 'time', 'data'], random)]),
  ),
  'drop-data-field': onLine((line, random) =>
    editJson(
      line,
      (record) => void delete dataOf(record)[pick(['turn', 'id', 'content', 'reason', 'step', 'message'], random)],
    ),
  ),
  'wrong-type': onLine((line, random) =>
    editJson(
      line,
      (record) =>
        void (record[pick(['type', 'seq', 'time', 'data'], random)] = pick<unknown>(
          ['x', -1, 1.5, null, [], {}, true],
          random,
        )),
    ),
  ),
  'wrong-data-type': onLine((line, random) =>
    editJson(
      line,
      (record) =>
        void (dataOf(record)[pick(['turn', 'step', 'content'], random)] = pick<unknown>(
          ['two', -3, null, [1], {}],
          random,
        )),
    ),
  ),
  'duplicate-line': (lines, random) => {
    const copy = [...lines];
    const at = eventLine(copy, random);
    copy.splice(at, 0, copy[at] as string);
    return copy;
  },
  'delete-line': (lines, random) => lines.filter((_, index) => index !== eventLine(lines, random)),
  'swap-lines': (lines, random) => {
    const copy = [...lines];
    const at = eventLine(copy, random);
    const next = Math.min(copy.length - 2, at + 1);
    [copy[at], copy[next]] = [copy[next] as string, copy[at] as string];
    return copy;
  },
  'garbage-line': (lines, random) => {
    const copy = [...lines];
    copy.splice(
      eventLine(copy, random),
      0,
      pick(['not json', '{', '[]', '{"type":1}', 'null', '\u0000\u0001'], random),
    );
    return copy;
  },
  'seq-gap': onLine((line) =>
    editJson(line, (record) => void (typeof record.seq === 'number' && (record.seq = record.seq + 7))),
  ),
  'unknown-type': onLine((line) => editJson(line, (record) => void (record.type = 'x/never-heard-of-it'))),
  'deep-ignorable-last': (lines) => {
    const copy = [...lines];
    const last = copy.length - 2;
    copy.splice(
      last + 1,
      0,
      `{"type":"x/extension","seq":${last},"time":1,"ignorable":true,"data":{"n":${nested(5_500)}}}`,
    );
    return copy;
  },
  'deep-catalog': onLine((line) => editJson(line, (record) => void (dataOf(record).content = 'DEEP'))),
  'header-version': (lines) => [
    editJson(lines[0] as string, (record) => void (record.version = 99)),
    ...lines.slice(1),
  ],
  'header-garbage': (lines) => ['{"type":"notes","text":"hello"}', ...lines.slice(1)],
  'header-only': (lines) => [lines[0] as string, ''],
  crlf: (lines) => [lines.join('\r\n')],
  'huge-number': onLine((line) => line.replace(/"time":\d+/, '"time":1e400')),
  'long-string': onLine((line) => line.replace('"text":"', `"text":"${'y'.repeat(200_000)}`)),
  'blank-flood': (lines, random) => {
    const copy = [...lines];
    copy.splice(eventLine(copy, random), 0, ...blankFlood(random));
    return copy;
  },
  'blank-tail': (lines, random) => [...lines.slice(0, -1), ...blankFlood(random), ''],
};

export const byteMutations: Readonly<Record<string, ByteMutation>> = {
  truncate: (bytes, random) => bytes.subarray(0, random.below(bytes.length + 1)),
  'flip-byte': (bytes, random) => {
    const copy = Buffer.from(bytes);
    const at = random.below(copy.length);
    copy[at] = (copy[at] as number) ^ (1 + random.below(255));
    return copy;
  },
  'invalid-utf8': (bytes, random) => {
    const at = random.below(bytes.length);
    return Buffer.concat([bytes.subarray(0, at), Buffer.from([0xc3, 0x28, 0xff]), bytes.subarray(at)]);
  },
  'append-garbage': (bytes, random) =>
    Buffer.concat([bytes, Buffer.from(pick(['garbage', '\u0000\u0000\u0000\u0000', '{"type":"turn/end"'], random))]),
  'empty-file': () => Buffer.alloc(0),
  bom: (bytes) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes]),
  // A zstd log's last frame (after a raw log's last line, a torn tail).
  'zstd-bomb': (bytes) => Buffer.concat([bytes, zstdBomb()]),
};

/** The deep catalog mutation writes its nesting after JSON.stringify (which could not build it). */
const finishText = (text: string): string => text.replace('"content":"DEEP"', `"content":${nested(12_000)}`);

export interface FuzzCase {
  readonly index: number;
  readonly base: string;
  readonly mutation: string;
  readonly code: number;
  readonly outcome: 'imported' | 'rejected';
  /** The properties this case broke (empty when it passed). */
  readonly violations: readonly string[];
}

export interface FuzzReport {
  readonly cases: readonly FuzzCase[];
  /** Rejected files that changed the store: the number that must be 0 (docs/benchmarks.md). */
  readonly partialImports: number;
  readonly violations: number;
  readonly byMutation: Readonly<Record<string, number>>;
}

const capture = (cwd: string): { io: CliIo; out: () => string; err: () => string } => {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const streams = { input: new PassThrough(), output: new PassThrough() };
  return {
    io: {
      stdout: (text) => void stdout.push(text),
      stderr: (text) => void stderr.push(text),
      env: {},
      cwd,
      stdoutIsTerminal: false,
      stderrIsTerminal: false,
      stderrColumns: 80,
      untilInterrupted: () => new Promise(() => undefined),
      stdio: () => streams,
    },
    out: () => stdout.join(''),
    err: () => stderr.join(''),
  };
};

/** Every stored event, as a comparable text: the store's whole content. */
const storeContent = (file: string): string => {
  const db = new Database(file, { readonly: true });
  try {
    const rows = db
      .prepare('SELECT stream_name, revision, event_id, type, data, metadata FROM events ORDER BY position')
      .all() as Array<Record<string, unknown>>;
    return JSON.stringify(rows);
  } finally {
    db.close();
  }
};

const importFile = async (file: string, store: string, cwd: string) => {
  const captured = capture(cwd);
  const code = await runCli(['import', file, '--store', store], captured.io);
  return { code, stdout: captured.out(), stderr: captured.err() };
};

const mutate = (
  base: Base,
  original: Buffer,
  random: DeterministicRandom,
): { readonly name: string; readonly bytes: Buffer } => {
  const lineKinds = Object.keys(lineMutations);
  const byteKinds = Object.keys(byteMutations);
  const useLines = !base.zstd && random.chance(lineKinds.length / (lineKinds.length + byteKinds.length));
  if (useLines) {
    const name = pick(lineKinds, random);
    const lines = (lineMutations[name] as LineMutation)(original.toString('utf8').split('\n'), random);
    return { name, bytes: Buffer.from(finishText(lines.join('\n'))) };
  }
  const name = pick(byteKinds, random);
  return { name, bytes: (byteMutations[name] as ByteMutation)(original, random) };
};

/** Run `cases` mutated imports under `workDirectory` (removed afterwards). */
export const runLogFuzz = async (options: {
  readonly cases: number;
  readonly seed: number;
  readonly workDirectory: string;
}): Promise<FuzzReport> => {
  const random = deterministicRandom(options.seed);
  mkdirSync(options.workDirectory, { recursive: true });
  const template = join(options.workDirectory, 'template.db');
  const seeded = await importFile(unrelated, template, options.workDirectory);
  if (seeded.code !== 0) throw new Error(`the fuzz template store could not be made: ${seeded.stderr}`);
  const templateContent = storeContent(template);
  const originals = fuzzBases.map((base) => readFileSync(base.file));
  const cleanContent = new Map<number, string>();
  const cases: FuzzCase[] = [];
  for (let index = 0; index < options.cases; index += 1) {
    const baseIndex = random.below(fuzzBases.length);
    const base = fuzzBases[baseIndex] as Base;
    const original = originals[baseIndex] as Buffer;
    const { name, bytes } = mutate(base, original, random);
    const directory = join(options.workDirectory, `case-${index}`);
    mkdirSync(directory);
    const file = join(directory, base.name);
    const store = join(directory, 'store.db');
    try {
      writeFileSync(file, bytes);
      copyFileSync(template, store);
      const run = await importFile(file, store, directory);
      const violations: string[] = [];
      if (run.code !== 0 && run.code !== 3) violations.push(`exit ${run.code}: ${run.stderr.trim()}`);
      if (/\n\s+at /.test(run.stderr)) violations.push('a stack trace on stderr');
      if (run.code === 3) {
        const lines = run.stderr.trimEnd().split('\n');
        if (lines.length !== 1) violations.push(`${lines.length} stderr lines`);
        const line = lines[0] ?? '';
        if (!line.startsWith(`teamlog: ${file}`)) violations.push(`the error line does not name the file: ${line}`);
        if (!/:line \d+/.test(line) && !/frame/.test(line)) violations.push(`the error line names no line: ${line}`);
        if (storeContent(store) !== templateContent) violations.push('PARTIAL: a rejected file changed the store');
        writeFileSync(file, original);
        const repaired = await importFile(file, store, directory);
        if (repaired.code !== 0) violations.push(`the repaired file was not imported: ${repaired.stderr.trim()}`);
        if (!cleanContent.has(baseIndex)) {
          const clean = join(directory, 'clean.db');
          copyFileSync(template, clean);
          await importFile(file, clean, directory);
          cleanContent.set(baseIndex, storeContent(clean));
        }
        if (storeContent(store) !== cleanContent.get(baseIndex))
          violations.push('the repaired import differs from a clean import');
      }
      cases.push({
        index,
        base: basename(base.file),
        mutation: name,
        code: run.code,
        outcome: run.code === 3 ? 'rejected' : 'imported',
        violations,
      });
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  }
  rmSync(options.workDirectory, { recursive: true, force: true });
  const byMutation: Record<string, number> = {};
  for (const each of cases) byMutation[each.mutation] = (byMutation[each.mutation] ?? 0) + 1;
  return {
    cases,
    partialImports: cases.filter((each) => each.violations.some((violation) => violation.startsWith('PARTIAL'))).length,
    violations: cases.filter((each) => each.violations.length > 0).length,
    byMutation,
  };
};
