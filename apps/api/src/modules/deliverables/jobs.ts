import type { AppDeps } from '../../deps.ts';
import type { JobHandler } from '../../jobs/port.ts';
import { queues } from '../../jobs/queue.ts';
import { sendVersionMails } from './mail.ts';

export function deliverablesJobs(deps: AppDeps): Record<string, JobHandler> {
  return {
    [queues.deliverablesVersionMail]: async (data) => {
      await sendVersionMails(deps, data.versionId!);
    },
  };
}
