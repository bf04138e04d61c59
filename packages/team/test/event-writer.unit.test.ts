import { type SessionId, type TeamId, type WritableEvent, sequentialIds } from '@teamlog/events';
import { type WriteContext, writableEvents } from '../src/event-writer';

/* The metadata text a writer hands the store is JSON.stringify's of its metadata, byte for byte, however its writer text was kept. */

const created: WritableEvent = {
  type: 'teamlog/session/created',
  data: { teamId: 't-1' as TeamId, role: 'lead', name: 'lead' },
};

const context = (writer: string | undefined, teamId: string | undefined): WriteContext => ({
  ids: sequentialIds('w'),
  now: () => 1_700_000_000_123,
  ...(writer === undefined ? {} : { writer: writer as SessionId }),
  ...(teamId === undefined ? {} : { teamId: teamId as TeamId }),
});

describe('writableEvents: the metadata text', () => {
  it.each([
    ['a writer and its team', [['w-1', 't-1']]],
    [
      'one writer in two teams, one after the other and back',
      [
        ['w-1', 't-1'],
        ['w-1', 't-2'],
        ['w-1', 't-1'],
      ],
    ],
    [
      'a writer, then no team, then no writer',
      [
        ['w-1', 't-1'],
        ['w-1', undefined],
        [undefined, 't-1'],
        [undefined, undefined],
      ],
    ],
    [
      'ids that need escaping',
      [
        ['w "quoted" \\ \u0001', 't\u2028'],
        ['w "quoted" \\ \u0001', 't\u2028'],
      ],
    ],
  ] as const)('is what JSON.stringify writes for %s, every time', (_, writers) => {
    for (const [writer, teamId] of writers) {
      for (let round = 0; round < 2; round += 1) {
        const [event] = writableEvents([created], context(writer, teamId));
        expect(event?.metadataText).toBe(JSON.stringify(event?.metadata));
      }
    }
  });
});
