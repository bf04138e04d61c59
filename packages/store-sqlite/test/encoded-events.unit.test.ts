import { setFlagsFromString } from 'node:v8';
import type { EventId } from '@teamlog/events';
import type { EventToAppend } from '@teamlog/store';
import { encodedEvents } from '../src/encoded-events';

// V8's own checks, to see the array's elements kind and force the compile the send path meets when warm.
setFlagsFromString('--allow-natives-syntax');
const natives = (body: string) => new Function('f', 'a', body) as (f: unknown, a?: unknown) => unknown;
const prepare = natives('%PrepareFunctionForOptimization(f);');
const optimizeNext = natives('%OptimizeFunctionOnNextCall(f);');
const isHoley = natives('return %HasHoleyElements(a);');
// V8's optimisation status has 16 set while the function runs optimised code.
const runsOptimised = (f: unknown): boolean => ((natives('return %GetOptimizationStatus(f);')(f) as number) & 16) !== 0;

const event = (n: number): EventToAppend => ({
  id: `event-${n}` as EventId,
  type: 'note',
  data: { n },
  dataText: `{"n":${n}}`,
});

describe('the events of an append as the store writes them', () => {
  it('given events with and without kept texts, when encoded, then each carries its text, or JSON where none was kept, and null metadata when there is none', () => {
    const plain: EventToAppend = { id: 'event-2' as EventId, type: 'note', data: { b: [1] }, metadata: { by: 'x' } };
    expect(encodedEvents([event(1), plain])).toStrictEqual([
      { id: 'event-1', type: 'note', data: '{"n":1}', metadata: null },
      { id: 'event-2', type: 'note', data: '{"b":[1]}', metadata: '{"by":"x"}' },
    ]);
  });

  it('given the encoding compiled by the optimising compiler, when it encodes, then its array is packed as from the interpreter, so its readers keep one map', () => {
    const encodeFor = encodedEvents;
    prepare(encodeFor);
    const interpreted = encodeFor([event(1)]);
    encodeFor([event(2)]);
    optimizeNext(encodeFor);
    const compiled = encodeFor([event(3)]);
    expect(runsOptimised(encodeFor)).toBe(true);
    expect([isHoley(undefined, interpreted), isHoley(undefined, compiled)]).toEqual([false, false]);
  });
});
