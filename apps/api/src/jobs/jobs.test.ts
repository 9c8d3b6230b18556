import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/harness.ts';
import { idleWorkerDeps } from '../../test/workers.ts';
import { BossJobs } from './port.ts';
import { startQueue } from './queue.ts';
import { startWorkers } from './workers.ts';

const t = useTestApp();

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** Runs `use` with a pg-boss of its own on the app's database, stopped after whatever happens. */
async function withQueue(use: (boss: Awaited<ReturnType<typeof startQueue>>) => Promise<void>) {
  const boss = await startQueue(t.config.DATABASE_URL!, quiet);
  try {
    await use(boss);
  } finally {
    await boss.stop({ graceful: false, wait: true });
  }
}

describe('module jobs on pg-boss', () => {
  it('a failing job is retried alone; the rest of its batch completes', async () => {
    await withQueue(async (boss) => {
      const name = 'test.flaky';
      await boss.createQueue(name, { name, retryLimit: 3, retryDelay: 60 });
      const ran: string[] = [];
      const ids: string[] = [];
      for (const n of ['1', '2', '3']) ids.push((await boss.send(name, { n }))!);
      await startWorkers(
        boss,
        idleWorkerDeps(t.deps.mailer, {
          [name]: async ({ n }) => {
            ran.push(n!);
            if (n === '2') throw new Error('provider down');
          },
        }),
      );
      const states = async () =>
        Promise.all(ids.map(async (id) => (await boss.getJobById(name, id))?.state));
      await expect.poll(states, { timeout: 15_000 }).toEqual(['completed', 'retry', 'completed']);
      expect([...ran].sort()).toEqual(['1', '2', '3']);
    });
  });

  it('hands a role convergence held by a killed worker to another within two minutes', async () => {
    await withQueue(async (boss) => {
      const converge = await boss.getQueue('access.discord-converge');
      expect(converge?.expireInSeconds).toBe(120);
      // The rest are left to pg-boss's default of 15 minutes: a mail or a webhook batch may run long.
      expect((await boss.getQueue('mail.deliver'))?.expireInSeconds).toBeNull();
    });
  });

  it('a scheduled job, which has no data, reaches its handler as it came', async () => {
    await withQueue(async (boss) => {
      const name = 'test.scheduled';
      await boss.createQueue(name, { name, retryLimit: 0 });
      // What `boss.schedule` queues each time its cron line comes round: data null.
      const id = (await boss.send(name, null as unknown as object))!;
      const seen: unknown[] = [];
      await startWorkers(
        boss,
        idleWorkerDeps(t.deps.mailer, { [name]: async (data) => void seen.push(data) }),
      );
      await expect
        .poll(async () => (await boss.getJobById(name, id))?.state, { timeout: 15_000 })
        .toBe('completed');
      expect(seen).toEqual([null]);
    });
  });

  it('a job sent in a transaction is queued by it, on its own connection', async () => {
    await withQueue(async (boss) => {
      const name = 'test.in-transaction';
      await boss.createQueue(name, { name });
      const jobs = new BossJobs(boss);
      const db = t.database.db;
      const queued = async () =>
        (
          await db.execute<{ n: number }>(
            sql`select count(*)::int as n from pgboss.job where name = ${name}`,
          )
        ).rows[0]!.n;
      // Rolled back with the transaction that sent it.
      await db
        .transaction(async (tx) => {
          await jobs.send(name, { n: '1' }, { tx });
          tx.rollback();
        })
        .catch(() => undefined);
      expect(await queued()).toBe(0);
      // Committed with it; no other connection is needed: the queue's own pool could not write
      // now (the job table is locked by this transaction), as on the one-connection embedded
      // database, where the queue's connection waits for any open transaction to end.
      await db.transaction(async (tx) => {
        await tx.execute(sql`lock table pgboss.job in exclusive mode`);
        await jobs.send(name, { n: '2' }, { tx });
      });
      expect(await queued()).toBe(1);
    });
  });
});
