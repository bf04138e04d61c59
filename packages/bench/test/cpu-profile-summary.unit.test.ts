import { areaOfUrl, decodeCpuProfile, summariseCpuProfile } from '../src/cpu-profile-summary';

const frame = (functionName: string, url = '', lineNumber = 0) => ({ functionName, url, lineNumber });

/* (root) -> scan (dsh) -> parseLine (dsh) and -> hash (node:crypto); (idle) and (garbage collector) beside. */
const profile = {
  nodes: [
    { id: 1, callFrame: frame('(root)'), children: [2, 5, 6] },
    { id: 2, callFrame: frame('scan', 'file:///repo/packages/dsh/dist/session-log-reader.js', 129), children: [3, 4] },
    { id: 3, callFrame: frame('parseLine', 'file:///repo/packages/dsh/dist/event-line-processor.js', 12) },
    { id: 4, callFrame: frame('digest', 'node:internal/crypto/hash', 149) },
    { id: 5, callFrame: frame('(idle)') },
    { id: 6, callFrame: frame('(garbage collector)') },
  ],
  samples: [3, 3, 4, 2, 5, 6],
  timeDeltas: [1000, 1000, 2000, 1000, 5000, 1000],
};

describe('CPU profile summary', () => {
  const decoded = decodeCpuProfile(profile);
  if (decoded._tag === 'Left') throw decoded.left;
  const summary = summariseCpuProfile(decoded.right);

  it('sums self time per function from the sample intervals, leaving idle out', () => {
    expect(summary.totalMs).toBe(6);
    expect(summary.selfTime.map((entry) => [entry.name, entry.ms])).toEqual([
      ['digest node:internal/crypto/hash:150', 2],
      ['parseLine packages/dsh/event-line-processor:13', 2],
      ['(garbage collector)', 1],
      ['scan packages/dsh/session-log-reader:130', 1],
    ]);
    expect(summary.selfTime[0]?.share).toBeCloseTo(2 / 6);
  });

  it('counts a caller for the time of everything it called', () => {
    expect(summary.totalTime[0]).toMatchObject({ name: 'scan packages/dsh/session-log-reader:130', ms: 5 });
  });

  it('groups self time by package, dependency, Node internals and GC', () => {
    expect(summary.byArea.map((entry) => [entry.name, entry.ms])).toEqual([
      ['@teamlog/dsh', 3],
      ['node internals', 2],
      ['(garbage collector)', 1],
    ]);
    expect(areaOfUrl('file:///repo/node_modules/uuid/dist/cjs/v35.js', 'v35')).toBe('uuid');
    expect(areaOfUrl('file:///repo/node_modules/@bokuweb/zstd-wasm/dist/index.js', 'f')).toBe('@bokuweb/zstd-wasm');
    expect(areaOfUrl('', 'structuredClone')).toBe('native');
  });

  it('refuses a file that is not a CPU profile, naming the field', () => {
    const refused = decodeCpuProfile({ nodes: [], samples: 'none' });
    expect(refused._tag).toBe('Left');
    if (refused._tag === 'Left') expect(refused.left.path).toBe('cpuprofile.samples');
  });
});
