import { noSamples, observeRss, startRssSampling } from '../src/rss-sampler';

describe('RSS sampling', () => {
  afterEach(() => jest.useRealTimers());

  it('keeps the largest sample and counts them', () => {
    const seen = [120, 300, 180].reduce(observeRss, noSamples);
    expect(seen).toEqual({ peakBytes: 300, samples: 3 });
  });

  it('samples at start, on every interval and once more at stop', () => {
    jest.useFakeTimers();
    const readings = [100, 400, 250, 150];
    let next = 0;
    const sampler = startRssSampling(10, () => readings[next++] ?? 0);
    jest.advanceTimersByTime(25);
    expect(sampler.stop()).toEqual({ peakBytes: 400, samples: 4 });
    jest.advanceTimersByTime(100);
    expect(next).toBe(4);
  });
});
