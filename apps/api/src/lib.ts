import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** Opaque public id: a type prefix and 16 random bytes (never sequential). */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(16).toString('base64url')}`;
}

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export function hmac(secret: string, value: string): string {
  return createHmac('sha256', secret).update(value).digest('hex');
}

/** Constant-time string comparison. */
export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  if (ab.length !== bb.length) {
    timingSafeEqual(ab, ab);
    return false;
  }
  return timingSafeEqual(ab, bb);
}

export function sixDigitCode(): string {
  return randomInt(0, 1_000_000).toString().padStart(6, '0');
}

/**
 * The wait before the `attempt`-th retry (from 1): `first`, then doubling, at most `max`, in whatever
 * unit they are given. Every retry loop of ours waits this way.
 */
export const backoff = (attempt: number, first: number, max: number) =>
  Math.min(max, first * 2 ** Math.max(0, attempt - 1));

export const minutes = (n: number) => n * 60_000;
export const hours = (n: number) => n * 3_600_000;
export const days = (n: number) => n * 86_400_000;

/**
 * Runs `work` for each item, `lanes` at a time, in order of taking. After a failure no lane takes
 * another item; the first failure is thrown once every lane has stopped.
 */
export async function inLanes<T>(
  items: readonly T[],
  lanes: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  let failed = false;
  const settled = await Promise.allSettled(
    Array.from({ length: Math.min(lanes, items.length) }, async () => {
      try {
        while (next < items.length && !failed) await work(items[next++]!);
      } catch (err) {
        failed = true;
        throw err;
      }
    }),
  );
  const broken = settled.find((s) => s.status === 'rejected');
  if (broken) throw broken.reason;
}

/**
 * One pass at a time per process: a call while a pass runs asks it for one more and joins it, so a
 * burst of wake-ups costs one pass and one more, not one each.
 */
export class SingleRun {
  private current: { again: boolean; running: Promise<void> } | null = null;

  /** While a pass runs, asks it for one more and answers true; otherwise false. */
  askAgain(): boolean {
    if (!this.current) return false;
    this.current.again = true;
    return true;
  }

  run(pass: () => Promise<unknown>): Promise<void> {
    if (this.current) {
      this.current.again = true;
      return this.current.running;
    }
    const run = { again: false, running: Promise.resolve() };
    run.running = (async () => {
      try {
        do {
          run.again = false;
          await pass();
        } while (run.again);
      } finally {
        this.current = null;
      }
    })();
    this.current = run;
    return run.running;
  }
}
