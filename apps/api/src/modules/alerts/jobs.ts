import type { AppDeps } from '../../deps.ts';
import type { JobData, JobHandler } from '../../jobs/port.ts';
import { queues } from '../../jobs/queue.ts';
import { demoSignal } from './seed.ts';
import { sendAlertMail } from './mail.ts';
import { sendDiscordPosts } from './discord.ts';

/** Alert e-mail batches and Discord posts (woken by a publish, swept every minute) and the demo feed's signal. */
export function alertsJobs(deps: AppDeps): Record<string, JobHandler> {
  return {
    [queues.alertsMail]: async () => void (await sendAlertMail(deps)),
    [queues.alertsDemoSignal]: async () => void (await demoSignal(deps)),
    // Woken per alert by its publish; swept every minute for retries and lost wake-ups (a scheduled
    // job: pg-boss hands it null, not data).
    [queues.alertsDiscord]: async (data: JobData | null) =>
      void (await sendDiscordPosts(deps, data?.alertId)),
  };
}
