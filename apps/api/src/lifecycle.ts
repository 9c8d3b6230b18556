import type { FastifyInstance } from 'fastify';
import type PgBoss from 'pg-boss';
import type { EmbeddedPostgres } from './db/embedded.ts';
import type { AppDeps, Logger } from './deps.ts';
import { startWorkers, workerDeps } from './jobs/workers.ts';
import { startMemberWatch, type MemberWatch } from './modules/access/index.ts';
import { stopTracing } from './platform/tracing.ts';

export interface Running {
  app?: FastifyInstance | null;
  boss?: PgBoss | null;
  deps: AppDeps;
  embedded?: EmbeddedPostgres | null;
  /** Member events still trying to start (`startBackground`). */
  watch?: MemberWatch | null;
}

/**
 * What runs beside serving: the job workers, and member events (the gateway connection lives with
 * the workers, against Discord or the sandbox alike). Returns without waiting on Discord, whose
 * outage must not keep the site from starting (ADR 047): member events start in the background and
 * retry. `serving`: this process also serves HTTP (`npm start`, not the worker). When it serves the
 * sandbox, whose gateway is its own port, member events wait for `listening` (`afterListen`).
 */
export async function startBackground(
  deps: AppDeps,
  boss: PgBoss | null,
  log: Logger,
  options: { serving: boolean },
): Promise<{ watch: MemberWatch | null; afterListen: () => MemberWatch | null }> {
  const workers = !options.serving || deps.config.RUN_WORKER;
  if (workers && boss) await startWorkers(boss, workerDeps(deps, log));
  const ownGateway = options.serving && deps.config.DISCORD_SANDBOX;
  const watch = workers && !ownGateway ? startMemberWatch(deps, log) : null;
  return {
    watch,
    afterListen: () => (workers && ownGateway ? startMemberWatch(deps, log) : watch),
  };
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
  running.watch?.stop();
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
  // Last, so the spans of the steps above are sent too.
  await step('tracing', () => stopTracing());
  return failed;
}
