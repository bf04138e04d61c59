import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { frameKinds, maxFrameBytes, runFrameFuzz } from '../src/frame-fuzz';

/*
 * Hostile MCP frame streams through `teamlog mcp` (frames over 10 MiB with the id first, last or
 * nowhere, blank-line floods, unparsable and too deeply nested frames, `__proto__` keys, unknown
 * methods, bad params): every request answered once with its JSON-RPC error or result, the server
 * serving the request after them, exit 0 when stdin ends. The bench runs more (`--only fuzz`).
 */
describe('teamlog mcp fed hostile frame streams', () => {
  it('answers every frame and keeps serving, over 24 streams of 11 kinds of frame', async () => {
    expect(Object.keys(frameKinds)).toHaveLength(11);
    const report = await runFrameFuzz({
      cases: 24,
      seed: 27,
      workDirectory: join(mkdtempSync(join(tmpdir(), 'teamlog-frame-fuzz-')), 'work'),
    });
    expect(report.cases.filter((each) => each.violations.length > 0)).toEqual([]);
    // The streams reach the oversized frames of every shape.
    for (const kind of ['huge-frame-id-first', 'huge-frame-id-last', 'huge-frame-no-id', 'blank-flood'])
      expect(report.byKind[kind]).toBeGreaterThan(0);
    expect(report.largestBytes).toBeGreaterThan(maxFrameBytes);
  }, 600_000);
});
