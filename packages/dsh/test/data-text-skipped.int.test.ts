import { join } from 'node:path';
import { type EventToAppend, HeadsOnlyEventStore, type StagedAppends } from '@teamlog/store';
import { importSessionLog } from '../src';

const repoRoot = join(__dirname, '..', '..', '..');
const lead = join(repoRoot, 'fixtures/synthetic/v4-late-delivery/late-lead/session.v4.jsonl');

/** A heads-only store that notes, for each session event staged, whether it carried its line's `data` text. */
class NotingStore extends HeadsOnlyEventStore {
  readonly withText: boolean[] = [];

  constructor(override readonly ignoresDataText: boolean) {
    super();
  }

  override stageAppends(): StagedAppends {
    const unit = super.stageAppends();
    return {
      ...unit,
      append: (stream, events: readonly EventToAppend[], options) => {
        if (stream.startsWith('session-')) for (const event of events) this.withText.push(event.dataText !== undefined);
        return unit.append(stream, events, options);
      },
    };
  }
}

describe.each([
  ['a single pass', {}],
  ['a second read', { singlePassBytes: 0 }],
])('the line text of each event, in %s', (_pass, options) => {
  it('is not cut out for a store that ignores it (the one-shot replay store)', async () => {
    const store = new NotingStore(true);
    const result = await importSessionLog(lead, store, options);
    expect(result.rejected).toBeUndefined();
    expect(store.withText.length).toBe(result.events);
    expect(store.withText.every((has) => !has)).toBe(true);
  });

  it('is handed to any other store', async () => {
    const store = new NotingStore(false);
    const result = await importSessionLog(lead, store, options);
    expect(result.rejected).toBeUndefined();
    expect(store.withText.length).toBe(result.events);
    expect(store.withText.every((has) => has)).toBe(true);
  });
});
