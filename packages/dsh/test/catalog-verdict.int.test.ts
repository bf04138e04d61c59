import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HeadsOnlyEventStore, type RecordedEvent } from '@teamlog/store';
import { importSessionLog } from '../src';

const id = 'verdict-lead';
const header = {
  type: 'session',
  version: 4,
  id,
  createdAt: 1785000000000,
  cwd: '/v',
  isSeeded: false,
  delegationDepth: 0,
};
const member = (seq: number, phase: unknown) => ({
  type: 'team/member',
  seq,
  time: 1785000000100 + seq,
  data: {
    version: 2,
    teamId: id,
    member: { id: 'child-a', name: 'reviewer', description: 'r', provider: 'spawn', context: 'fresh', phase },
  },
});
const lines = (invalidTeamRecord: boolean) => [
  header,
  { type: 'turn/start', seq: 0, time: 1785000000100, data: { turn: 1 } },
  member(1, 'provisioning'),
  { type: 'plugin:acme/telemetry', seq: 2, time: 1785000000102, data: { samples: 3 } },
  ...(invalidTeamRecord ? [member(3, 7)] : []),
];

const directories: string[] = [];
afterAll(() => Promise.all(directories.map((directory) => fs.rm(directory, { recursive: true, force: true }))));

const writeLog = async (invalidTeamRecord: boolean): Promise<string> => {
  const directory = await fs.mkdtemp(join(tmpdir(), 'teamlog-verdict-'));
  directories.push(directory);
  const file = join(directory, 'session.v4.jsonl');
  await fs.writeFile(
    file,
    lines(invalidTeamRecord)
      .map((line) => `${JSON.stringify(line)}\n`)
      .join(''),
  );
  return file;
};

/**
 * Each session event the views were handed, with the verdict that came with it. Views that already
 * hold something (`singlePassBytes` given) cannot be folded before the file is validated, so a file
 * past the budget is read twice.
 */
const importSeen = async (file: string, singlePassBytes?: number): Promise<Array<[string, boolean]>> => {
  const store = new HeadsOnlyEventStore();
  const seen: Array<[string, boolean]> = [];
  const note = (events: readonly RecordedEvent[]): void => {
    for (const event of events)
      if (event.streamName.startsWith('session-')) seen.push([event.type, event.catalog === true]);
  };
  store.participate({
    checkpoint: singlePassBytes === undefined ? undefined : { commit: 0n, prepare: 0n },
    stage: note,
    prepare: note,
    committed: () => undefined,
    aborted: () => undefined,
  });
  const result = await importSessionLog(file, store, singlePassBytes === undefined ? {} : { singlePassBytes });
  expect(result.rejected).toBeUndefined();
  return seen;
};

describe('the reader hands its verdict on each payload to the views of a one-shot replay', () => {
  it('marks the catalog payloads it accepted, not an unknown type or a Team record its codec refused', async () => {
    const file = await writeLog(true);
    expect(await importSeen(file)).toEqual([
      ['turn/start', true],
      ['team/member', true],
      ['plugin:acme/telemetry', false],
      ['team/member', false],
    ]);
  });

  it('on a second read, trusts the Team records only when the validating read refused none of them', async () => {
    expect(await importSeen(await writeLog(false), 0)).toEqual([
      ['turn/start', true],
      ['team/member', true],
      ['plugin:acme/telemetry', false],
    ]);
    expect(await importSeen(await writeLog(true), 0)).toEqual([
      ['turn/start', true],
      ['team/member', false],
      ['plugin:acme/telemetry', false],
      ['team/member', false],
    ]);
  });
});
