import { type ChildRequest, resultPrefix } from '../src/child-protocol';
import { ChildMeasurementFailed, resultOf } from '../src/run-child';

const request: ChildRequest = { case: 'read-log', file: '/tmp/session.v4.jsonl' };
const result = {
  case: 'read-log',
  elapsedMs: 12.5,
  count: 40,
  peakRssBytes: 1024,
  sampledPeakRssBytes: 900,
  detail: { lines: 41 },
};

describe('child result line', () => {
  it('finds the result among other output and decodes it', () => {
    const stdout = `a warning\n${resultPrefix}${JSON.stringify(result)}\ntrailing\n`;
    expect(resultOf(request, stdout)).toEqual(result);
  });

  it('fails naming the case when the child printed no result', () => {
    expect(() => resultOf(request, 'nothing here\n')).toThrow(
      new ChildMeasurementFailed(request, 'the child printed no result'),
    );
  });

  it('fails naming the field when the result has the wrong shape', () => {
    const stdout = `${resultPrefix}${JSON.stringify({ ...result, count: 'forty' })}\n`;
    expect(() => resultOf(request, stdout)).toThrow(/read-log measurement failed: .*count/);
  });
});
