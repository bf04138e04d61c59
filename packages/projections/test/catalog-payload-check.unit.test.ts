import fc from 'fast-check';
import { isRight } from 'fp-ts/Either';
import { type CatalogEventType, type JsonValue, decodeCatalogEvent } from '@teamlog/events';
import { catalogPayloadError } from '@teamlog/projections';
import {
  agentMessageItem,
  claim,
  delivered,
  mailboxItem,
  member,
  promptItem,
  queued,
  relayItem,
  splice,
  task,
  userMessage,
} from '@teamlog/test-support/session-log-builder';

/* The fast payload check must give exactly the catalog decoder's verdict (and its error) for any JSON payload. */

const relayed = relayItem('r1', 'lead', 'lead');
const valid: ReadonlyArray<readonly [CatalogEventType, unknown]> = [
  [
    'agent/inbox/spliced',
    splice('next-step', 0, [
      relayed,
      mailboxItem('lead', 'q1', 'lead', 'lead'),
      agentMessageItem('a1', 'lead'),
      promptItem('p1'),
    ]).data,
  ],
  ['agent/inbox/spliced', claim('next-turn', 2, { outcome: 'canceled' }).data],
  ['user/message', userMessage(relayed).data],
  ['teamlog/inbox/accepted', { teamId: 'lead', list: 'next-turn', message: relayed }],
  ['teamlog/inbox/claimed', { list: 'next-step', messageIds: ['r1'], turn: 3, step: 1 }],
  ['teamlog/inbox/canceled', { list: 'next-turn', messageIds: ['r1'], reason: 'closed' }],
  ['team/member', member(2, 'lead', 'm1', 'alpha', 'provisioning').data],
  ['team/task', task(1, 'lead', 't1', 1, { ownerId: 'm1' }).data],
  ['team/message/queued', queued(1, 'lead', 'q1', 'lead', 'lead', 'm1').data],
  ['team/message/delivered', delivered(2, 'lead', 'q1', 'm1').data],
];

type Json = JsonValue;
type Mutation = {
  readonly at: number;
  readonly kind: 'replace' | 'drop' | 'add';
  readonly value: Json;
  readonly key: string;
};

/** Every container and leaf of a JSON value, depth first, with a setter for its slot. */
const slots = (
  value: Json,
  set: (next: Json | undefined) => void,
  out: Array<{ value: Json; set: (next: Json | undefined) => void }> = [],
) => {
  out.push({ value, set });
  if (Array.isArray(value))
    value.forEach((item, index) =>
      slots(item, (next) => (next === undefined ? value.splice(index, 1) : (value[index] = next)), out),
    );
  else if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, Json>;
    for (const key of Object.keys(record))
      slots(record[key] as Json, (next) => (next === undefined ? delete record[key] : (record[key] = next)), out);
  }
  return out;
};

const mutate = (payload: unknown, mutation: Mutation): Json => {
  const root = { payload: structuredClone(payload) as Json };
  const all = slots(root.payload, (next) => (root.payload = next as Json));
  const slot = all[mutation.at % all.length] as (typeof all)[number];
  if (mutation.kind === 'replace') slot.set(mutation.value);
  else if (mutation.kind === 'drop') slot.set(undefined);
  else if (typeof slot.value === 'object' && slot.value !== null && !Array.isArray(slot.value))
    (slot.value as Record<string, Json>)[mutation.key] = mutation.value;
  else if (Array.isArray(slot.value)) slot.value.push(mutation.value);
  return root.payload;
};

const mutation: fc.Arbitrary<Mutation> = fc.record({
  at: fc.nat(200),
  kind: fc.constantFrom('replace', 'drop', 'add'),
  value: fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>,
  key: fc.constantFrom(
    'id',
    'source',
    'kind',
    'extra',
    'content',
    'start',
    'removedCount',
    'outcome',
    'messageIds',
    'senderName',
    'version',
  ),
});

describe('catalog payload check', () => {
  it.each(valid.map(([type, data]) => [type, data]))('accepts a valid %s payload', (type, data) => {
    expect(catalogPayloadError(type as CatalogEventType, data)).toBeUndefined();
  });

  it('gives the catalog decoder verdict and error for any mutation of a valid payload', () => {
    fc.assert(
      fc.property(fc.nat(valid.length - 1), fc.array(mutation, { minLength: 1, maxLength: 3 }), (which, mutations) => {
        const [type, base] = valid[which] as readonly [CatalogEventType, unknown];
        const payload = mutations.reduce<unknown>((data, one) => mutate(data, one), base);
        const decoded = decodeCatalogEvent(type, payload);
        const refused = catalogPayloadError(type, payload);
        expect(refused === undefined).toBe(isRight(decoded));
        if (refused !== undefined && !isRight(decoded)) expect(refused.message).toBe(decoded.left.message);
      }),
      { numRuns: 2000 },
    );
  });
});
