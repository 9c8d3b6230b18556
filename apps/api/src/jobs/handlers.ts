import type { AppDeps } from '../deps.ts';
import { eventJobs } from '../events/jobs.ts';
import { webhookJobs } from '../webhooks/jobs.ts';
import { accessJobs } from '../modules/access/jobs.ts';
import { authJobs } from '../modules/auth/jobs.ts';
import { deliverablesJobs } from '../modules/deliverables/jobs.ts';
import { tradingviewJobs } from '../modules/tradingview/jobs.ts';
import { alertsJobs } from '../modules/alerts/jobs.ts';
import type { JobHandler } from './port.ts';

/** Every module job by queue name: pg-boss workers and the in-process runner use the same table. */
export function jobHandlers(deps: AppDeps): Record<string, JobHandler> {
  return {
    ...authJobs(deps),
    ...eventJobs(deps),
    ...accessJobs(deps),
    ...tradingviewJobs(deps),
    ...deliverablesJobs(deps),
    ...webhookJobs(deps),
    ...alertsJobs(deps),
  };
}
