import { isSnapshotFixtureHeader, isUnindexedPlaceholderId, scopeId } from '@teamlog/events';

describe('snapshot fixture headers and their scope', () => {
  it('treats a header with a placeholder in any field, or the nil UUID as its id, as a snapshot fixture', () => {
    expect(isSnapshotFixtureHeader({ id: 'abc', cwd: '{{cwd}}' })).toBe(true);
    expect(isSnapshotFixtureHeader({ id: '00000000-0000-0000-0000-000000000000', cwd: '/work' })).toBe(true);
    expect(isSnapshotFixtureHeader({ id: '0b7fd85c-9f6f-4d46-b954-363984ce66fb', cwd: '/work' })).toBe(false);
  });

  it('tells unindexed placeholder ids from indexed ones and from real ids', () => {
    expect(isUnindexedPlaceholderId('{{sessionId}}')).toBe(true);
    expect(isUnindexedPlaceholderId('{{session:2}}')).toBe(false);
    expect(isUnindexedPlaceholderId('{{child-1}}')).toBe(false);
    expect(isUnindexedPlaceholderId('session-1')).toBe(false);
  });

  it('leaves an id outside any scope unchanged and suffixes it inside one', () => {
    expect(scopeId('s-1', undefined)).toBe('s-1');
    expect(scopeId('{{sessionId}}', 'suite/parent.expected.jsonl')).toBe('{{sessionId}}@suite/parent.expected.jsonl');
  });
});
