import { type HeldKey, type HeldWork, Hold, KeyedLock, maxRememberedKeys } from '../src/keyed-lock';

describe('one queue per key', () => {
  it("given a free key, when work is run, then it starts in the caller's turn", () => {
    const lock = new KeyedLock<string>();
    const started: string[] = [];
    void lock.run('a', async () => started.push('a'));
    expect(started).toEqual(['a']);
  });

  it('given a held key, when more work is queued, then it runs one at a time in call order; other keys do not wait', async () => {
    const lock = new KeyedLock<string>();
    const order: string[] = [];
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const first = lock.run('a', async () => {
      await gate;
      order.push('a1');
    });
    const second = lock.run('a', async () => order.push('a2'));
    await lock.run('b', async () => order.push('b'));
    expect(order).toEqual(['b']);
    open();
    await Promise.all([first, second]);
    expect(order).toEqual(['b', 'a1', 'a2']);
  });

  it("given work that releases the key as its last step, when a caller of other work resumes in the same turn, then it finds the key free before the work's own settling would have freed it", async () => {
    const lock = new KeyedLock<string>();
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let heldWhenResumed: boolean | undefined;
    const first = lock
      .run('a', async () => {
        await gate;
      })
      .then(() => {
        heldWhenResumed = lock.isHeld('b');
      });
    const second = lock.run('b', async (release) => {
      await gate;
      release();
    });
    open();
    await Promise.all([first, second]);
    expect(heldWhenResumed).toBe(false);
  });

  it('given work that releases the key and then settles, then the waiter behind it starts once, at the release', async () => {
    const lock = new KeyedLock<string>();
    const order: string[] = [];
    const first = lock.run('a', async (release) => {
      await Promise.resolve();
      order.push('first');
      release();
      order.push('first released');
    });
    const second = lock.run('a', async () => {
      order.push('second');
    });
    await Promise.all([first, second]);
    expect(order).toEqual(['first', 'second', 'first released']);
    expect(lock.isHeld('a')).toBe(false);
  });

  it('given work that throws at once, when run on a free key, then the run rejects and the key is free again', async () => {
    const lock = new KeyedLock<string>();
    await expect(
      lock.run('a', () => {
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    await expect(lock.run('a', async () => 'next')).resolves.toBe('next');
  });

  it('given an aborted signal, when work is run on a free key, then it rejects with SendAborted and the work never runs', async () => {
    const lock = new KeyedLock<string>();
    const controller = new AbortController();
    controller.abort('stop');
    const work = jest.fn(async () => 'ran');
    await expect(lock.run('a', work, controller.signal)).rejects.toMatchObject({ code: 'SendAborted' });
    expect(work).not.toHaveBeenCalled();
    await expect(lock.run('a', async () => 'free')).resolves.toBe('free');
  });

  it('given a waiter whose signal fires in the queue, then it rejects with SendAborted, never runs, and the work behind it keeps its place', async () => {
    const lock = new KeyedLock<string>();
    const order: string[] = [];
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const first = lock.run('a', async () => {
      await gate;
      order.push('first');
    });
    const controller = new AbortController();
    const aborted = lock.run('a', async () => order.push('aborted'), controller.signal);
    const third = lock.run('a', async () => order.push('third'));
    controller.abort('stop');
    await expect(aborted).rejects.toMatchObject({ code: 'SendAborted' });
    expect(order).toEqual([]);
    expect(lock.isHeld('a')).toBe(true);
    open();
    await Promise.all([first, third]);
    expect(order).toEqual(['first', 'third']);
    expect(lock.isHeld('a')).toBe(false);
  });

  it('given running work that rejects, then the next waiter still runs and the key is free after it', async () => {
    const lock = new KeyedLock<string>();
    const failed = lock.run('a', async () => {
      throw new Error('refused');
    });
    const next = lock.run('a', async () => 'next');
    await expect(failed).rejects.toThrow('refused');
    await expect(next).resolves.toBe('next');
    expect(lock.isHeld('a')).toBe(false);
  });

  it('given work run with runHeld, when it releases the key while its promise is still pending, then the next work on the key starts', async () => {
    const lock = new KeyedLock<string>();
    const order: string[] = [];
    void lock.runHeld('a', {
      start: (held) => {
        order.push('a1');
        held.release();
        return new Promise<void>(() => undefined);
      },
    });
    await lock.run('a', async () => order.push('a2'));
    expect(order).toEqual(['a1', 'a2']);
  });

  it('given work run with runHeld that never releases, when its promise settles, then the key stays held (the work owns the release)', async () => {
    const lock = new KeyedLock<string>();
    await lock.runHeld('a', { start: async () => undefined });
    expect(lock.isHeld('a')).toBe(true);
  });

  it('given work that throws before it returns a promise, when run, then the run rejects and the key is free at once', async () => {
    const lock = new KeyedLock<string>();
    const run = lock.runHeld('a', {
      start: () => {
        throw new Error('refused');
      },
    });
    expect(lock.isHeld('a')).toBe(false);
    await expect(run).rejects.toThrow('refused');
  });

  it('given a held work that releases twice, when work waits behind it and more behind that, then the second release frees nothing of the next hold', async () => {
    const lock = new KeyedLock<string>();
    const order: string[] = [];
    let releaseFirst: () => void = () => undefined;
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    void lock.runHeld('a', {
      start: (held) => {
        releaseFirst = () => held.release();
        return new Promise<void>(() => undefined);
      },
    });
    const second = lock.run('a', async () => {
      order.push('second');
      await gate;
      order.push('second done');
    });
    const third = lock.run('a', async () => order.push('third'));
    releaseFirst();
    releaseFirst();
    await Promise.resolve();
    expect(order).toEqual(['second']);
    open();
    await Promise.all([second, third]);
    expect(order).toEqual(['second', 'second done', 'third']);
    expect(lock.isHeld('a')).toBe(false);
  });

  it('given a waiter that is aborted after the queue it joined passed to the next hold, then the work behind it still keeps its place', async () => {
    const lock = new KeyedLock<string>();
    const order: string[] = [];
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const first = lock.run('a', async () => order.push('first'));
    const second = lock.run('a', async () => {
      await gate;
      order.push('second');
    });
    const controller = new AbortController();
    const aborted = lock.run('a', async () => order.push('aborted'), controller.signal);
    const fourth = lock.run('a', async () => order.push('fourth'));
    await first;
    controller.abort('stop');
    await expect(aborted).rejects.toMatchObject({ code: 'SendAborted' });
    open();
    await Promise.all([second, fourth]);
    expect(order).toEqual(['first', 'second', 'fourth']);
    expect(lock.isHeld('a')).toBe(false);
  });

  it('given a key whose work is done, when work runs on it again, then the key is free between runs and remembered once', async () => {
    const lock = new KeyedLock<string>();
    await lock.run('a', async () => 'first');
    expect(lock.isHeld('a')).toBe(false);
    expect(lock.rememberedKeys).toBe(1);
    await expect(lock.run('a', async () => 'second')).resolves.toBe('second');
    expect(lock.rememberedKeys).toBe(1);
  });

  it('given more keys than it remembers, when work runs on one more, then the free keys are forgotten and a held key keeps its queue', async () => {
    const lock = new KeyedLock<number>();
    let open: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const order: string[] = [];
    const held = lock.run(-1, async () => {
      await gate;
      order.push('held');
    });
    const queued = lock.run(-1, async () => order.push('queued'));
    for (let key = 0; key < maxRememberedKeys + 10; key += 1) await lock.run(key, async () => key);
    expect(lock.rememberedKeys).toBeLessThanOrEqual(maxRememberedKeys + 1);
    expect(lock.isHeld(-1)).toBe(true);
    open();
    await Promise.all([held, queued]);
    expect(order).toEqual(['held', 'queued']);
    expect(lock.isHeld(-1)).toBe(false);
  });

  it('given work that is a Hold, when run holding its key, then it is its own hold: the key waits until it releases itself, and a second release does nothing', async () => {
    const lock = new KeyedLock<string>();
    const holds: HeldKey[] = [];
    class SelfHeld extends Hold<string> implements HeldWork<string> {
      start(held: HeldKey): Promise<string> {
        holds.push(held);
        return Promise.resolve('done');
      }
    }
    const work = new SelfHeld();
    await expect(lock.runHeld('a', work)).resolves.toBe('done');
    expect(holds).toEqual([work]);
    const next = lock.runHeld('a', new SelfHeld());
    expect(holds).toHaveLength(1);
    work.release();
    await expect(next).resolves.toBe('done');
    expect(holds).toHaveLength(2);
    const second = holds[1] as Hold<string>;
    second.release();
    work.release();
    expect(lock.isHeld('a')).toBe(false);
  });
});
