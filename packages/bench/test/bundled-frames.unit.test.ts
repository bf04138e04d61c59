import type { CpuProfile } from '../src/cpu-profile-summary';
import { summariseCpuProfile } from '../src/cpu-profile-summary';
import { type FrameLocator, withSourceFrames } from '../src/bundled-frames';

const bundle = 'file:///repo/packages/bench/dist/bundle/bench-child.js';
const profile: CpuProfile = {
  nodes: [
    { id: 1, callFrame: { functionName: '(root)', url: '', lineNumber: -1 }, children: [2] },
    { id: 2, callFrame: { functionName: 'discoverSessionLogs', url: bundle, lineNumber: 2682 } },
  ],
  samples: [2, 2],
  timeDeltas: [1000, 1000],
} as CpuProfile;
const locate: FrameLocator = (url, lineNumber) =>
  url === bundle && lineNumber === 2682
    ? { url: 'file:///repo/packages/dsh/src/session-log-discovery.ts', lineNumber: 40 }
    : undefined;

describe('profile frames of a bundle', () => {
  it('are summarised at their sources, so areas name the package', () => {
    const summary = summariseCpuProfile(withSourceFrames(profile, locate));
    expect(summary.byArea.map((area) => area.name)).toEqual(['@teamlog/dsh']);
    expect(summary.selfTime[0]?.name).toBe('discoverSessionLogs packages/dsh/src/session-log-discovery.ts:41');
  });

  it('keep frames the locator does not know', () => {
    expect(withSourceFrames(profile, () => undefined)).toEqual(profile);
  });
});
