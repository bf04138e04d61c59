import * as fc from 'fast-check';
import { type JsonSchema, jsonSchemaOf, teamTools, toolDefinitions } from '@teamlog/tools';
import { schemaCheck } from './schema-check';

/* The schemas a model sees are generated from the codecs that decode its arguments: one source of truth. */

/** Every property name declared anywhere in a schema (nested objects, array items, union branches). */
const propertyNames = (schema: unknown): string[] => {
  if (Array.isArray(schema)) return schema.flatMap(propertyNames);
  if (typeof schema !== 'object' || schema === null) return [];
  const entries = Object.entries(schema);
  const own = entries.flatMap(([key, value]) =>
    key === 'properties' && typeof value === 'object' && value !== null ? Object.keys(value) : [],
  );
  return [...own, ...entries.flatMap(([, value]) => propertyNames(value))];
};

/** No sender (it is always the calling session) and nothing that chooses delivery or timing (always steer). */
const forbidden = /sender|deliver|schedul|steer|wake|quiet|follow.?up|mode|when|delay|defer|priority|queue/i;
const forbiddenNames = (schema: JsonSchema): string[] => propertyNames(schema).filter((name) => forbidden.test(name));

const jsonValue = fc.oneof(
  fc.constant(''),
  fc.string(),
  fc.constantFrom('lead', 'task-1', 'pending', 'in_progress', 'completed', 'deleted', 'done', 'claimed'),
  fc.integer({ min: -2, max: 4 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.oneof(fc.string(), fc.constant(''), fc.integer())),
);

/** Values a property schema should accept (so both verdicts come up), for the keywords the converter emits. */
const likelyValid = (schema: unknown): fc.Arbitrary<unknown> => {
  if (typeof schema !== 'object' || schema === null) return jsonValue;
  const keywords = schema as Record<string, unknown>;
  if (Array.isArray(keywords.enum)) return fc.constantFrom(...(keywords.enum as unknown[]));
  if (Array.isArray(keywords.anyOf)) return fc.oneof(...(keywords.anyOf as unknown[]).map(likelyValid));
  switch (keywords.type) {
    case 'string':
      return fc.string({ minLength: typeof keywords.minLength === 'number' ? keywords.minLength : 0 });
    case 'integer':
      return fc.integer({ min: -1, max: 5 });
    case 'array':
      return fc.array(likelyValid(keywords.items), { maxLength: 3 });
    case 'null':
      return fc.constant(null);
    default:
      return jsonValue;
  }
};

/** Objects with some of a schema's own properties (valid-looking or not) and some strangers (`sender`, `x`), and now and then not an object. */
const argumentsFor = (schema: JsonSchema): fc.Arbitrary<unknown> => {
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  const keys = fc
    .tuple(fc.subarray(Object.keys(properties)), fc.subarray(['sender', 'x'], { maxLength: 1 }))
    .map(([mine, strangers]) => [...mine, ...strangers]);
  const valueFor = (key: string): fc.Arbitrary<unknown> =>
    fc.oneof({ weight: 4, arbitrary: likelyValid(properties[key]) }, { weight: 1, arbitrary: jsonValue });
  const objects = keys.chain((chosen) => fc.record(Object.fromEntries(chosen.map((key) => [key, valueFor(key)]))));
  return fc.oneof({ weight: 8, arbitrary: objects }, { weight: 1, arbitrary: jsonValue });
};

describe('the Team toolset schemas', () => {
  it('given the toolsets, then they match the reviewed snapshot', () => {
    expect({
      lead: toolDefinitions('lead'),
      member: toolDefinitions('member').map((tool) => tool.name),
    }).toMatchSnapshot();
  });

  it("given the Lead and a member, then only the Lead's toolset spawns members and both send, read and work on tasks", () => {
    const lead = toolDefinitions('lead').map((tool) => tool.name);
    const member = toolDefinitions('member').map((tool) => tool.name);
    expect(lead).toEqual([
      'send_message',
      'read_inbox',
      'list_members',
      'spawn_member',
      'list_tasks',
      'create_task',
      'claim_task',
      'update_task',
    ]);
    expect(member).toEqual(lead.filter((name) => name !== 'spawn_member'));
  });

  it('given send_message, then its schema is exactly { target, message }, both required, nothing else allowed', () => {
    const send = toolDefinitions('member').find((tool) => tool.name === 'send_message');
    expect(send?.inputSchema).toMatchObject({
      type: 'object',
      required: ['target', 'message'],
      additionalProperties: false,
    });
    expect(Object.keys((send?.inputSchema.properties ?? {}) as object)).toEqual(['target', 'message']);
  });

  it('given every input and output schema, then none has a sender, delivery or scheduling field, and every object is closed', () => {
    const schemas = teamTools.flatMap((tool) => [jsonSchemaOf(tool.input), jsonSchemaOf(tool.output)]);
    expect(schemas.flatMap(forbiddenNames)).toEqual([]);
    const objects = (schema: unknown): Record<string, unknown>[] =>
      typeof schema !== 'object' || schema === null
        ? []
        : [
            ...(!Array.isArray(schema) && (schema as Record<string, unknown>).type === 'object'
              ? [schema as Record<string, unknown>]
              : []),
            ...Object.values(schema).flatMap(objects),
          ];
    for (const object of schemas.flatMap(objects)) expect(object.additionalProperties).toBe(false);
  });

  it('given a schema with a planted sender or delivery field, then the walk finds it (the check above can fail)', () => {
    const planted = {
      type: 'object',
      properties: {
        target: { type: 'string' },
        nested: { type: 'object', properties: { senderName: {}, deliverAs: {} } },
      },
    };
    expect(forbiddenNames(planted)).toEqual(['senderName', 'deliverAs']);
  });

  it("given random arguments, then each tool's schema and codec accept exactly the same ones, inputs and outputs alike", () => {
    for (const tool of teamTools) {
      for (const codec of [tool.input, tool.output]) {
        const schema = jsonSchemaOf(codec);
        const check = schemaCheck(schema);
        const verdicts = new Set<boolean>();
        fc.assert(
          fc.property(argumentsFor(schema), (value) => {
            verdicts.add(codec.is(value));
            expect([tool.name, codec.name, value, check(value)]).toEqual([
              tool.name,
              codec.name,
              value,
              codec.is(value),
            ]);
          }),
          { numRuns: 300, seed: 16 },
        );
        // Arguments were explored on both sides of the line (results are nested too deep to hit by chance).
        if (codec === tool.input) expect([tool.name, [...verdicts].sort()]).toEqual([tool.name, [false, true]]);
      }
    }
  });

  it('given hand-picked arguments, then schema and codec agree on them, and the valid ones are valid', () => {
    const cases: ReadonlyArray<readonly [string, unknown, boolean]> = [
      ['send_message', { target: 'reviewer', message: 'hi' }, true],
      ['send_message', { target: 'reviewer', message: 'hi', sender: 'lead' }, false],
      ['send_message', { target: '', message: 'hi' }, false],
      ['send_message', { target: 'reviewer' }, false],
      ['update_task', { taskId: 'task-1', expectedRevision: 2, owner: null }, true],
      ['update_task', { taskId: 'task-1', expectedRevision: 1.5 }, false],
      ['update_task', { taskId: 'task-1', expectedRevision: 0 }, false],
      ['create_task', { subject: 'x', blockedBy: ['task-1'], writeScopes: ['src/'] }, true],
      ['create_task', { subject: 'x', blockedBy: [''] }, false],
      ['list_tasks', { status: 'done' }, false],
      ['read_inbox', {}, true],
    ];
    for (const [name, value, valid] of cases) {
      const input = teamTools.find((candidate) => candidate.name === name)?.input;
      if (input === undefined) throw new Error(`no tool ${name}`);
      expect([name, value, input.is(value), schemaCheck(jsonSchemaOf(input))(value)]).toEqual([
        name,
        value,
        valid,
        valid,
      ]);
    }
  });
});
