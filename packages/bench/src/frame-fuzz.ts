import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { type CliIo, runCli } from '@teamlog/cli';
import { SqliteEventStore } from '@teamlog/store-sqlite';
import { createTeamLog } from '@teamlog/team';
import { type DeterministicRandom, deterministicRandom } from './deterministic-random';

/*
 * Hostile MCP frame streams for `teamlog mcp` (docs/tools.md, "Frames and limits"): frames over
 * the 10 MiB limit (the id at their start, at their end, or nowhere), floods of blank and
 * whitespace-only lines, frames that are not JSON, nesting too deep to parse, `__proto__` keys,
 * unknown methods and bad params, mixed with good requests. Each stream goes to a real `teamlog
 * mcp` in this process in pieces of up to 1 MiB, as a pipe would deliver it. Checked for every
 * case: every request is answered exactly once (a frame whose id cannot be seen once, with id
 * null), each bad one with its JSON-RPC error code and a one-line message, the request after all
 * of them is served, the command exits 0 when stdin ends, and nothing on stderr is a stack trace.
 */

/** `defaultMaxFrameBytes` of @teamlog/tools: the most bytes of one frame `teamlog mcp` reads. */
export const maxFrameBytes = 10 * 1024 * 1024;

type RequestId = number | null;

/** An answer a frame must get: its id, and the error code (undefined: a result). */
interface ExpectedAnswer {
  readonly id: RequestId;
  readonly code: number | undefined;
}

interface HostileFrame {
  /** The bytes written, newline included (a flood is many lines). */
  readonly text: string;
  readonly answers: readonly ExpectedAnswer[];
}

type FrameKind = (id: number, random: DeterministicRandom) => HostileFrame;

const line = (value: unknown): string => `${JSON.stringify(value)}\n`;
const oversize = (random: DeterministicRandom): number => maxFrameBytes + 1 + random.below(1024 * 1024);
const sendCall = (id: number, message: string) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'send_message', arguments: { target: 'lead', message } },
});

export const frameKinds: Readonly<Record<string, FrameKind>> = {
  'huge-frame-id-first': (id, random) => ({
    text: line(sendCall(id, 'x'.repeat(oversize(random)))),
    answers: [{ id, code: -32600 }],
  }),
  'huge-frame-id-last': (id, random) => ({
    text: `{"method":"tools/call","params":{"name":"send_message","arguments":{"target":"lead","message":"${'y'.repeat(oversize(random))}"}},"jsonrpc":"2.0","id":${id}}\n`,
    answers: [{ id, code: -32600 }],
  }),
  'huge-frame-no-id': (_id, random) => ({
    text: `["${'z'.repeat(oversize(random))}"]\n`,
    answers: [{ id: null, code: -32600 }],
  }),
  'huge-whitespace-frame': (_id, random) => ({
    text: `${' '.repeat(oversize(random))}\n`,
    answers: [{ id: null, code: -32600 }],
  }),
  'blank-flood': (_id, random) => ({
    text: Array.from({ length: 20_000 + random.below(30_000) }, (_, index) => ['', ' ', '\t', '\r', ' \t '][index % 5])
      .map((blank) => `${blank}\n`)
      .join(''),
    answers: [],
  }),
  unparsable: (id) => ({ text: `{"jsonrpc":"2.0","id":${id},"method":\n`, answers: [{ id: null, code: -32700 }] }),
  'deep-nesting': (_id, random) => ({
    text: `${'['.repeat(200_000 + random.below(100_000))}\n`,
    answers: [{ id: null, code: -32700 }],
  }),
  'proto-key': (id) => ({
    text: `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"send_message","arguments":{"target":"lead","message":"hi","__proto__":{"x":1}}}}\n`,
    answers: [{ id, code: -32602 }],
  }),
  'unknown-method': (id) => ({
    text: line({ jsonrpc: '2.0', id, method: 'teamlog/nothing' }),
    answers: [{ id, code: -32601 }],
  }),
  'bad-params': (id) => ({
    text: line({ jsonrpc: '2.0', id, method: 'resources/read', params: { uri: 7 } }),
    answers: [{ id, code: -32602 }],
  }),
  'good-request': (id) => ({
    text: line({ jsonrpc: '2.0', id, method: 'tools/list' }),
    answers: [{ id, code: undefined }],
  }),
};

const initialize = line({
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'frame-fuzz', version: '1' } },
});
const initialized = line({ jsonrpc: '2.0', method: 'notifications/initialized' });
const lastId = 999_999;

export interface FrameFuzzCase {
  readonly index: number;
  readonly kinds: readonly string[];
  readonly bytes: number;
  readonly code: number;
  /** The properties this case broke (empty when it passed). */
  readonly violations: readonly string[];
}

export interface FrameFuzzReport {
  readonly cases: readonly FrameFuzzCase[];
  readonly violations: number;
  readonly byKind: Readonly<Record<string, number>>;
  /** The largest stream fed to one `teamlog mcp`, in bytes. */
  readonly largestBytes: number;
}

interface Answer {
  readonly id?: unknown;
  readonly result?: unknown;
  readonly error?: { readonly code?: unknown; readonly message?: unknown };
}

/** The answers seen against the answers expected: what is missing, extra or of the wrong code. */
const compareAnswers = (expected: readonly ExpectedAnswer[], seen: readonly Answer[]): string[] => {
  const key = (id: unknown) => JSON.stringify(id ?? null);
  const left = new Map<string, ExpectedAnswer[]>();
  for (const answer of expected) left.set(key(answer.id), [...(left.get(key(answer.id)) ?? []), answer]);
  const violations: string[] = [];
  for (const answer of seen) {
    const waiting = left.get(key(answer.id)) ?? [];
    const code = answer.error === undefined ? undefined : answer.error.code;
    const match = waiting.findIndex((candidate) => candidate.code === code);
    if (match < 0) {
      violations.push(`an unexpected answer: ${JSON.stringify(answer).slice(0, 200)}`);
      continue;
    }
    waiting.splice(match, 1);
    const message = answer.error?.message;
    if (typeof message === 'string' && message.includes('\n')) violations.push(`a multi-line error: ${message}`);
  }
  for (const waiting of left.values())
    for (const answer of waiting)
      violations.push(`no answer for id ${key(answer.id)} (code ${answer.code ?? 'result'})`);
  return violations;
};

const feed = async (input: PassThrough, text: string): Promise<void> => {
  const piece = 1024 * 1024;
  for (let start = 0; start < text.length; start += piece) {
    if (!input.write(text.slice(start, start + piece)))
      await new Promise<void>((resolve) => input.once('drain', () => resolve()));
  }
};

const runCase = async (file: string, sessionId: string, frames: readonly HostileFrame[]) => {
  const input = new PassThrough();
  const output = new PassThrough();
  let stdout = '';
  output.on('data', (chunk: Buffer) => void (stdout += chunk.toString('utf8')));
  const stderr: string[] = [];
  const io: CliIo = {
    stdout: () => undefined,
    stderr: (text) => void stderr.push(text),
    env: {},
    cwd: process.cwd(),
    stdoutIsTerminal: false,
    stderrIsTerminal: false,
    stderrColumns: 80,
    untilInterrupted: () => new Promise(() => undefined),
    stdio: () => ({ input, output }),
  };
  const running = runCli(['mcp', '--session', sessionId, '--store', file], io);
  const last = line({ jsonrpc: '2.0', id: lastId, method: 'tools/list' });
  await feed(input, initialize + initialized);
  for (const frame of frames) await feed(input, frame.text);
  await feed(input, last);
  input.end();
  const code = await running;
  const answers = stdout
    .split('\n')
    .filter((text) => text !== '')
    .map((text) => JSON.parse(text) as Answer);
  return { code, answers, stderr: stderr.join('') };
};

/** Run `cases` hostile frame streams (each 1 to 4 frames) under `workDirectory` (removed afterwards). */
export const runFrameFuzz = async (options: {
  readonly cases: number;
  readonly seed: number;
  readonly workDirectory: string;
}): Promise<FrameFuzzReport> => {
  const random = deterministicRandom(options.seed);
  mkdirSync(options.workDirectory, { recursive: true });
  const file = join(options.workDirectory, 'team.db');
  const store = SqliteEventStore.open(file);
  const teamlog = createTeamLog({ store });
  const lead = await teamlog.createTeam();
  await teamlog.dispose();
  await store.close();
  const names = Object.keys(frameKinds);
  const cases: FrameFuzzCase[] = [];
  try {
    for (let index = 0; index < options.cases; index += 1) {
      const kinds = Array.from({ length: 1 + random.below(4) }, () => names[random.below(names.length)] as string);
      const frames = kinds.map((kind, offset) => (frameKinds[kind] as FrameKind)(index * 10 + offset + 1, random));
      const run = await runCase(file, lead.sessionId, frames);
      const expected = [
        { id: 0, code: undefined },
        ...frames.flatMap((frame) => frame.answers),
        { id: lastId, code: undefined },
      ];
      const violations = compareAnswers(expected, run.answers);
      if (run.code !== 0) violations.push(`exit ${run.code}: ${run.stderr.trim().slice(0, 300)}`);
      if (/\n\s+at /.test(run.stderr)) violations.push('a stack trace on stderr');
      const bytes = frames.reduce((sum, frame) => sum + frame.text.length, 0);
      cases.push({ index, kinds, bytes, code: run.code, violations });
    }
  } finally {
    rmSync(options.workDirectory, { recursive: true, force: true });
  }
  const byKind: Record<string, number> = {};
  for (const each of cases) for (const kind of each.kinds) byKind[kind] = (byKind[kind] ?? 0) + 1;
  return {
    cases,
    violations: cases.filter((each) => each.violations.length > 0).length,
    byKind,
    largestBytes: Math.max(0, ...cases.map((each) => each.bytes)),
  };
};
