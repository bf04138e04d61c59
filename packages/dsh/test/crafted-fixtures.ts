import { promises as fs } from 'node:fs';
import { dirname, join } from 'node:path';
import { encodeZstdFrame, initZstdEncoder } from '../src/zstd-frame-encoder';

/*
 * Small logs for the recovery and edge cases the real logs do not cover. `writeCraftedFixtures`
 * builds them; the committed copies under fixtures/crafted/ are checked against it
 * (crafted-fixtures.int.test.ts). `zstd-cli/` is made by the zstd command-line tool and is only
 * committed (CI need not have the tool).
 */

export const craftedRoot = join(__dirname, '..', '..', '..', 'fixtures', 'crafted');

type Line = Record<string, unknown>;
const jsonl = (lines: readonly Line[]): string => lines.map((line) => `${JSON.stringify(line)}\n`).join('');

const v0Header = (id: string, extra: Line = {}): Line => ({
  type: 'session',
  version: 0,
  id,
  createdAt: 1785000000000,
  cwd: '/crafted',
  delegationDepth: 0,
  ...extra,
});
const modernHeader = (version: number, id: string, extra: Line = {}): Line => ({
  type: 'session',
  version,
  id,
  createdAt: 1785000000000,
  cwd: '/crafted',
  isSeeded: false,
  delegationDepth: 0,
  ...extra,
});

const userMessage = (seq: number, text: string): Line => ({
  type: 'user/message',
  seq,
  time: 1785000000100 + seq,
  surfaceOp: 'append',
  data: { id: `message-${seq}`, role: 'user', content: [{ type: 'text', text }], source: { kind: 'user' } },
});
const ev = (type: string, seq: number, data: unknown, extra: Line = {}): Line => ({
  type,
  seq,
  time: 1785000000100 + seq,
  data,
  ...extra,
});

/** A complete first turn: seqs 0..4. */
const turn = (): Line[] => [
  ev('turn/start', 0, { turn: 1 }),
  ev('step/start', 1, { turn: 1, step: 1 }),
  userMessage(2, 'hello'),
  ev('step/end', 3, { turn: 1, step: 1 }),
  ev('turn/end', 4, { turn: 1, reason: { kind: 'completed' } }),
];

const rawFixtures = (): Record<string, string> => ({
  'torn-tail/session.jsonl': `${jsonl([v0Header('crafted-torn-tail'), ...turn()])}{"type":"turn/start","seq":5,"time":17850`,
  'gap-no-turn-end/session.jsonl': jsonl([
    v0Header('crafted-gap-no-turn-end'),
    ...turn(),
    ev('turn/start', 5, { turn: 2 }),
    userMessage(7, 'after the gap'),
    ev('step/start', 8, { turn: 2, step: 1 }),
  ]),
  'gap-then-turn-end/session.jsonl': jsonl([
    v0Header('crafted-gap-then-turn-end'),
    ...turn(),
    ev('turn/start', 5, { turn: 2 }),
    userMessage(7, 'after the gap'),
    ev('turn/end', 8, { turn: 2, reason: { kind: 'completed' } }),
  ]),
  'unparsable-then-turn-end/session.jsonl': `${jsonl([v0Header('crafted-unparsable-then-turn-end'), ...turn()])}{"type":"turn/start","seq":5,"ti\n${jsonl([ev('turn/end', 6, { turn: 2, reason: { kind: 'completed' } })])}`,
  'newer-version/session.v5.jsonl': jsonl([modernHeader(5, 'crafted-newer-version'), ...turn()]),
  'not-a-session/notifications.jsonl': jsonl([
    {
      method: 'session.event',
      params: { sessionId: 'x', event: { type: 'turn/start', seq: 0, time: 0, data: { turn: 1 } } },
    },
  ]),
  'packed-seeded-v1/session.v1.jsonl': jsonl([
    v0Header('crafted-packed-seeded-v1', {
      version: 1,
      parentSession: 'crafted-parent',
      origin: 'subagent',
      delegationDepth: 1,
      seedLength: 2,
    }),
    ev('turn/start', 0, { turn: 1 }),
    ev('session/end-seed', 1, {}),
    ev('step/start', 2, { turn: 1, step: 1 }),
    {
      type: 'text-chunks',
      seq0: 3,
      time0: 1785000000200,
      data: { turn: 1, step: 1, index: 0, dt: [0, 5, -2], texts: ['a', 'b', 'c', 'd'] },
    },
    {
      type: 'reasoning-chunks',
      seq0: 7,
      time0: 1785000000300,
      data: { turn: 1, step: 1, index: 1, dt: [], texts: ['why'] },
    },
    {
      type: 'tool-call-chunks',
      seq0: 8,
      time0: 1785000000400,
      data: { turn: 1, step: 1, index: 2, dt: [1, 1], id: 'call-1', name: 'bash', args: ['{', '"a"', '}'] },
    },
    ev(
      'assistant/message',
      11,
      {
        turn: 1,
        step: 1,
        message: {
          id: 'assistant-1',
          role: 'assistant',
          content: [{ type: 'text', text: 'abcd' }],
          source: { kind: 'model', provider: 'p', model: 'm' },
        },
      },
      { sourceEventSeqs: [[3, 6], 8, 9], surfaceOp: 'append' },
    ),
    ev('step/end', 12, { turn: 1, step: 1 }),
    ev('turn/end', 13, { turn: 1, reason: { kind: 'completed' } }),
  ]),
  'seeded-v2/session.v2.jsonl': jsonl([
    modernHeader(2, 'crafted-seeded-v2', {
      isSeeded: true,
      parentSession: 'crafted-parent',
      origin: 'subagent',
      delegationDepth: 1,
    }),
    ev('turn/start', 0, { turn: 1 }),
    ev('session/end-seed', 1, { inherited: true }),
    ev('turn/end', 2, { turn: 1, reason: { kind: 'completed' } }),
    ev('session/end-seed', 3, { inherited: true }),
    ev('session/end-seed', 4, {}),
    ev('turn/start', 5, { turn: 2 }),
  ]),
  'unknown-types/session.v4.jsonl': jsonl([
    modernHeader(4, 'crafted-unknown-types'),
    ev('turn/start', 0, { turn: 1 }),
    ev('plugin:acme/telemetry', 1, { samples: 3 }),
    ev('acme/ignorable-note', 2, { note: 'skip me' }, { ignorable: true }),
    ev('turn/end', 3, { turn: 1, reason: { kind: 'forked' } }, { writer: 'acme' }),
  ]),
  'invalid-event/session.v3.jsonl': jsonl([
    modernHeader(3, 'crafted-invalid-event'),
    ev('turn/start', 0, { turn: 1 }),
    ev('step/start', 1, { turn: 1, step: 'two' }),
  ]),
  'invalid-team-record/session.v3.jsonl': jsonl([
    modernHeader(3, 'crafted-invalid-team-record'),
    ev('team/member', 0, {
      version: 2,
      teamId: 'crafted-invalid-team-record',
      member: { id: 'child-a', name: 'reviewer', description: 'review', provider: 'spawn', context: 'fresh', phase: 7 },
    }),
  ]),
});

/** Lines of distinct user messages, large enough that one zstd frame holds several 128 KiB blocks. */
const bulkLines = (from: number, count: number): Line[] =>
  Array.from({ length: count }, (_, k) =>
    userMessage(
      from + k,
      `bulk message ${from + k} ${'abcdefghij'.slice(0, (k * 7) % 10)} ${((from + k) * 2654435761) % 1000003}`,
    ),
  );

const zstdFixtures = async (): Promise<Record<string, Uint8Array>> => {
  await initZstdEncoder();
  const frame = (lines: readonly Line[]): Uint8Array => encodeZstdFrame(Buffer.from(jsonl(lines), 'utf8'));
  const header = frame([v0Header('crafted-zstd-incomplete')]);
  const first = frame(turn());
  const bulk = frame(bulkLines(5, 4000));
  const incomplete = Buffer.concat([header, first, bulk.subarray(0, bulk.length - 40)]);

  const corruptHeader = frame([v0Header('crafted-zstd-corrupt')]);
  const middle = Buffer.from(frame(turn()));
  middle[middle.length - 1] = (middle[middle.length - 1] as number) ^ 0xff;
  const corrupt = Buffer.concat([corruptHeader, middle, frame([ev('turn/start', 5, { turn: 2 })])]);
  return {
    'zstd-incomplete-frame/session.jsonl.zstd': incomplete,
    'zstd-corrupt-checksum/session.jsonl.zstd': corrupt,
  };
};

export const craftedFixtureNames = async (): Promise<string[]> => [
  ...Object.keys(rawFixtures()),
  ...Object.keys(await zstdFixtures()),
];

/** Write every generated crafted fixture under `root`. */
export const writeCraftedFixtures = async (root: string): Promise<void> => {
  const files: Record<string, string | Uint8Array> = { ...rawFixtures(), ...(await zstdFixtures()) };
  for (const [name, content] of Object.entries(files)) {
    await fs.mkdir(dirname(join(root, name)), { recursive: true });
    await fs.writeFile(join(root, name), content);
  }
};
