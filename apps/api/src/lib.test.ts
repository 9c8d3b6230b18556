import { describe, expect, it } from 'vitest';
import { backoff, inLanes } from './lib.ts';

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('inLanes', () => {
  it('runs every item, at most `lanes` at a time, taking them in order', async () => {
    const taken: number[] = [];
    let now = 0;
    let most = 0;
    await inLanes([1, 2, 3, 4, 5, 6, 7], 3, async (n) => {
      taken.push(n);
      most = Math.max(most, ++now);
      await tick();
      now--;
    });
    expect(taken).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(most).toBe(3);
  });

  it('takes nothing more after a failure, and throws it once the other lanes stopped', async () => {
    const done: number[] = [];
    let running = 0;
    const run = inLanes([1, 2, 3, 4, 5, 6], 2, async (n) => {
      running++;
      await tick();
      running--;
      if (n === 2) throw new Error('two failed');
      done.push(n);
    });
    await expect(run).rejects.toThrow('two failed');
    expect(running).toBe(0);
    // 1 and 2 ran side by side, 3 was taken when 1 finished; nothing after the failure.
    expect(done).toEqual([1, 3]);
  });

  it('does nothing for no items', async () => {
    await inLanes([], 4, () => Promise.reject(new Error('called')));
  });
});

describe('backoff', () => {
  it('starts at the first wait, doubles, and stops at the cap', () => {
    expect([1, 2, 3, 4, 10].map((n) => backoff(n, 30, 3600))).toEqual([30, 60, 120, 240, 3600]);
    // Minutes for owed refunds: 1, 2, 4 … at most six hours; a zeroth attempt waits the first.
    expect([0, 1, 2, 9, 10].map((n) => backoff(n, 1, 360))).toEqual([1, 1, 2, 256, 360]);
  });
});
