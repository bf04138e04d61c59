import { referenceEraRules, sourceKindEraViolation, teamRecordEraViolation } from '@teamlog/projections';

const before = Date.UTC(2026, 8, 20);
const relayDay = Date.UTC(2026, 8, 26, 12);
const after = Date.UTC(2026, 9, 2);

describe('era of a peer source kind', () => {
  it('accepts team-message in the mailbox era in any generation', () => {
    expect(sourceKindEraViolation('team-message', { formatVersion: 0, time: before }, false)).toBeUndefined();
    expect(sourceKindEraViolation('team-message', { formatVersion: 4, time: before }, false)).toBeUndefined();
  });

  it('accepts a team-message after the mailbox era only as a late legacy delivery', () => {
    expect(sourceKindEraViolation('team-message', { formatVersion: 4, time: after }, true)).toBeUndefined();
    expect(sourceKindEraViolation('team-message', { formatVersion: 4, time: after }, false)).toMatch(
      /after the mailbox era/,
    );
  });

  it('accepts agent-message from V3 on', () => {
    expect(sourceKindEraViolation('agent-message', { formatVersion: 3, time: before }, false)).toBeUndefined();
    expect(sourceKindEraViolation('agent-message', { formatVersion: 2, time: before }, false)).toMatch(/V2 log/);
  });

  it('accepts team-relay only in V4 logs from 2026-09-27', () => {
    expect(sourceKindEraViolation('team-relay', { formatVersion: 4, time: after }, false)).toBeUndefined();
    expect(sourceKindEraViolation('team-relay', { formatVersion: 3, time: after }, false)).toMatch(/V3 log/);
    expect(sourceKindEraViolation('team-relay', { formatVersion: 4, time: relayDay }, false)).toMatch(
      /before the relay era/,
    );
  });

  it('does not judge what it does not know (no header, no real time)', () => {
    expect(sourceKindEraViolation('team-relay', {}, false)).toBeUndefined();
    expect(sourceKindEraViolation('team-relay', { formatVersion: 4 }, false)).toBeUndefined();
    expect(sourceKindEraViolation('user', { formatVersion: 0, time: after }, false)).toBeUndefined();
  });

  it('follows the rules it is given', () => {
    const rules = { ...referenceEraRules, teamRelayEraStart: Date.UTC(2026, 8, 26) };
    expect(sourceKindEraViolation('team-relay', { formatVersion: 4, time: relayDay }, false, rules)).toBeUndefined();
  });
});

describe('era of a Team record', () => {
  it('refuses version-2 records in V0 to V2 logs', () => {
    expect(teamRecordEraViolation({ type: 'team/member', version: 2 }, { formatVersion: 2, time: before })).toMatch(
      /version-2 team\/member in a V2 log/,
    );
    expect(
      teamRecordEraViolation({ type: 'team/member', version: 2 }, { formatVersion: 3, time: before }),
    ).toBeUndefined();
    expect(
      teamRecordEraViolation({ type: 'team/member', version: 1 }, { formatVersion: 4, time: before }),
    ).toBeUndefined();
  });

  it('refuses a queued record after the mailbox era', () => {
    expect(
      teamRecordEraViolation({ type: 'team/message/queued', version: 2 }, { formatVersion: 4, time: after }),
    ).toMatch(/after the mailbox era/);
  });

  it('accepts a late version-2 delivered record, not a version-1 one', () => {
    expect(
      teamRecordEraViolation({ type: 'team/message/delivered', version: 2 }, { formatVersion: 4, time: after }),
    ).toBeUndefined();
    expect(
      teamRecordEraViolation({ type: 'team/message/delivered', version: 1 }, { formatVersion: 4, time: after }),
    ).toMatch(/version 2/);
  });

  it('accepts members and tasks after the mailbox era', () => {
    expect(
      teamRecordEraViolation({ type: 'team/task', version: 2 }, { formatVersion: 4, time: after }),
    ).toBeUndefined();
  });
});
