import { lifecycleEventTypes } from '@teamlog/domain';
import { isTeamRecordType } from '@teamlog/events';
import { typeOnlyEventTypes } from '../src/event-reads';
import { inboxEventTypes } from '../src/inbox-projection';

describe('the event types the views read only by type', () => {
  it('hold no type a fold reads the data of: no Team record, inbox or lifecycle event, end of seed or created session', () => {
    const read = typeOnlyEventTypes.filter(
      (type) =>
        isTeamRecordType(type) ||
        inboxEventTypes.has(type) ||
        lifecycleEventTypes.has(type) ||
        type === 'session/end-seed' ||
        type.startsWith('teamlog/'),
    );
    expect(read).toEqual([]);
  });
});
