import { isLeft, isRight } from 'fp-ts/Either';
import { decodeSessionHeader, isUnknownVersion } from '@teamlog/events';

const base = { type: 'session', id: 'lead-1', createdAt: 1785000000000, delegationDepth: 0 };

describe('session headers', () => {
  it('derive isSeeded from seedLength in V0 and V1', () => {
    const v0 = decodeSessionHeader({ ...base, version: 0, seedLength: 12 });
    expect(isRight(v0) && v0.right).toMatchObject({ version: 0, isSeeded: true, seedLength: 12 });
    const v1 = decodeSessionHeader({ ...base, version: 1 });
    expect(isRight(v1) && v1.right.isSeeded).toBe(false);
  });

  it('require isSeeded from V2 on and refuse seedLength there', () => {
    expect(isLeft(decodeSessionHeader({ ...base, version: 3 }))).toBe(true);
    expect(isLeft(decodeSessionHeader({ ...base, version: 2, isSeeded: true, seedLength: 3 }))).toBe(true);
    const v4 = decodeSessionHeader({
      ...base,
      version: 4,
      isSeeded: false,
      origin: 'subagent',
      parentSession: 'lead-0',
    });
    expect(isRight(v4) && v4.right).toMatchObject({ version: 4, origin: 'subagent' });
  });

  it('refuse the retired V0 keys sandboxMode and approvalPolicy', () => {
    const result = decodeSessionHeader({ ...base, version: 0, sandboxMode: 'read-only' });
    expect(isLeft(result) && result.left.message).toBe(
      'sandboxMode: unexpected key "sandboxMode" (not part of SessionHeaderV0)',
    );
  });

  it('read old headers without version or delegationDepth leniently as V0', () => {
    const result = decodeSessionHeader({ type: 'session', id: 'old', createdAt: 1, cwd: '/x' });
    expect(isRight(result) && result.right).toMatchObject({ version: 0, preVersion: true, isSeeded: false });
  });

  it('report a newer generation as needing a newer reader, before checking anything else', () => {
    const result = decodeSessionHeader({ type: 'session', version: 5, whatever: true });
    expect(isLeft(result) && isUnknownVersion(result.left, 'NewerFormatVersion')).toBe(true);
    expect(isLeft(result) && result.left.message).toBe(
      'version: session format version 5 needs a newer reader (this reader knows 0 to 4)',
    );
  });

  it('say when the first line is not a session header at all', () => {
    const result = decodeSessionHeader({ method: 'session/update', params: {} });
    expect(isLeft(result) && result.left.message).toMatch(/^type: expected a session header line/);
  });
});
