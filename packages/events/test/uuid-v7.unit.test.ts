import { validate, version } from 'uuid';
import { uuidV7Source } from '@teamlog/events';

const shape = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('uuid v7 source', () => {
  it('given the clock, then each id is a valid version 7 uuid carrying that millisecond', () => {
    const ms = Date.UTC(2026, 11, 2, 6, 0, 0, 123);
    const next = uuidV7Source({ now: () => ms });
    for (let index = 0; index < 100; index += 1) {
      const id = next();
      expect(id).toMatch(shape);
      expect(validate(id) && version(id)).toBe(7);
      expect(Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).toBe(ms);
    }
  });

  it('given many ids in one millisecond, and a clock that steps back, then they still sort in the order they were made', () => {
    let ms = 1_800_000_000_000;
    const next = uuidV7Source({ now: () => ms });
    const made: string[] = [];
    for (let index = 0; index < 5000; index += 1) {
      if (index === 2500) ms -= 10;
      if (index === 4000) ms += 20;
      made.push(next());
    }
    expect(new Set(made).size).toBe(made.length);
    expect([...made].sort()).toEqual(made);
  });

  it('given random bytes drawn from its pool, then it refills the pool only when it runs out', () => {
    let fills = 0;
    const next = uuidV7Source({
      now: () => 1_800_000_000_000,
      fill: (buffer) => {
        fills += 1;
        for (let index = 0; index < buffer.length; index += 1) buffer[index] = (index * 7 + fills) & 0xff;
      },
    });
    for (let index = 0; index < 100; index += 1) next();
    expect(fills).toBe(1);
  });

  it('given the clock and the random bytes, then each id is exactly their text: milliseconds, counter, random tail', () => {
    let ms = 1_800_000_000_000;
    const next = uuidV7Source({
      now: () => ms,
      fill: (buffer) => {
        for (let index = 0; index < buffer.length; index += 1) buffer[index] = (index * 37 + 11) & 0xff;
      },
    });
    const first = next();
    const second = next();
    ms += 5;
    expect([first, second, next()]).toEqual([
      '01a3185c-5000-774a-a980-5fc4e90e3358',
      '01a3185c-5000-774a-a980-65a2c7ec1136',
      '01a3185c-5005-7154-ac02-df14395e83a8',
    ]);
  });
});
