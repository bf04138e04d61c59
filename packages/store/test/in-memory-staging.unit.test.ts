import { InMemoryStaging, streamName } from '@teamlog/store';
import { newEvent } from '@teamlog/store-conformance';

const lengthOf = {
  encode: (event: { readonly type: string }) => event.type,
  bytes: (encoded: string) => encoded.length,
};

describe('InMemoryStaging', () => {
  it('hands over each stream at the commit, in staging order, with its encoded events and expectation', () => {
    const staging = new InMemoryStaging(100, 'a test store', lengthOf);
    staging.stage(streamName('b'), [newEvent('b/one')], { expectedRevision: 'no_stream' });
    staging.stage(streamName('a'), [newEvent('a/one')]);
    staging.stage(streamName('b'), [newEvent('b/two')]);
    expect(staging.take()).toEqual([
      { stream: 'b', expected: 'no_stream', events: 2, encoded: ['b/one', 'b/two'] },
      { stream: 'a', expected: 'any', events: 1, encoded: ['a/one'] },
    ]);
  });

  it('refuses a batch past the bound, naming the store, and the unit is then over', () => {
    const staging = new InMemoryStaging(8, 'a test store', lengthOf);
    staging.stage(streamName('s'), [newEvent('s/one')]);
    expect(() => staging.stage(streamName('s'), [newEvent('s/two')])).toThrow(
      expect.objectContaining({ code: 'StagedAppendsTooLarge' }),
    );
    expect(() => staging.stage(streamName('s'), [newEvent('s/two')])).toThrow(/2 events staged for a test store/);
    expect(() => staging.take()).toThrow(expect.objectContaining({ code: 'InvalidAppend' }));
  });

  it('an invalid batch is refused before anything is kept', () => {
    const staging = new InMemoryStaging(100, 'a test store', lengthOf);
    const event = newEvent('s/one');
    expect(() => staging.stage(streamName('s'), [event, event])).toThrow();
    expect(staging.take()).toEqual([]);
  });

  it('abort ends the unit once; aborting again, or after the commit, does nothing', () => {
    const staging = new InMemoryStaging(100, 'a test store', lengthOf);
    staging.stage(streamName('s'), [newEvent('s/one')]);
    staging.abort();
    staging.abort();
    expect(() => staging.take()).toThrow(expect.objectContaining({ code: 'InvalidAppend' }));
    const committed = new InMemoryStaging(100, 'a test store', lengthOf);
    committed.take();
    committed.abort();
    expect(() => committed.take()).toThrow(expect.objectContaining({ code: 'InvalidAppend' }));
  });
});
