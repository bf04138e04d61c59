import { type MemoryReading, noSamples, observeMemory, startMemorySampling } from '../src/memory-sampler';

const reading = (rss: number, heapUsed = 0, external = 0): MemoryReading => ({ rss, heapUsed, external });

describe('memory sampling', () => {
  afterEach(() => jest.useRealTimers());

  it('keeps the largest value of each field and counts the samples', () => {
    const seen = [reading(120, 50, 9), reading(300, 40, 1), reading(180, 70, 2)].reduce(observeMemory, noSamples);
    expect(seen).toEqual({ peakRssBytes: 300, peakHeapUsedBytes: 70, peakExternalBytes: 9, samples: 3 });
  });

  it('samples at start, on every interval and once more at stop', () => {
    jest.useFakeTimers();
    const readings = [100, 400, 250, 150].map((rss) => reading(rss));
    let next = 0;
    const sampler = startMemorySampling(10, () => readings[next++] ?? reading(0));
    jest.advanceTimersByTime(25);
    expect(sampler.stop()).toMatchObject({ peakRssBytes: 400, samples: 4 });
    jest.advanceTimersByTime(100);
    expect(next).toBe(4);
  });
});
