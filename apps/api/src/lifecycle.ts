import type { FastifyInstance } from 'fastify';
import type PgBoss from 'pg-boss';
import type { EmbeddedPostgres } from './db/embedded.ts';
import type { AppDeps } from './deps.ts';

export interface Running {
  app?: FastifyInstance | null;
  boss?: PgBoss | null;
  deps: AppDeps;
  embedded?: EmbeddedPostgres | null;
}

/**
 * Graceful stop: stop accepting and let in-flight requests finish, drain jobs, close the database.
 * Each step runs even when an earlier one failed (the database may be gone), and none waits on the
 * database for long: connections have connect and hold limits (ADR 019). Returns the failed steps.
 */
export async function closeServices(
  running: Running,
  log: { warn(obj: object, msg: string): void },
): Promise<string[]> {
  const failed: string[] = [];
  const step = async (name: string, close: () => Promise<unknown> | undefined) => {
    try {
      await close();
    } catch (err) {
      failed.push(name);
      log.warn(
        { step: name, err: err instanceof Error ? err.message : String(err) },
        'shutdown step failed',
      );
    }
  };
  await step('http', () => running.app?.close());
  await step('jobs', () => running.boss?.stop({ graceful: true, wait: true, timeout: 10_000 }));
  await step('services', () => running.deps.close());
  await step('database', () => running.deps.database.close());
  await step('embedded database', () => running.embedded?.stop());
  return failed;
}
