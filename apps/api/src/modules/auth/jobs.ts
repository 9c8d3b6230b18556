import type { AppDeps } from '../../deps.ts';
import type { JobData, JobHandler } from '../../jobs/port.ts';
import { queues } from '../../jobs/queue.ts';
import { mailActivationCode, mailResetCode } from './service.ts';

const emailOf = (data: JobData): string => {
  if (typeof data.email !== 'string') throw new Error('job without an e-mail');
  return data.email;
};

const mailIdOf = (data: JobData): string => {
  if (typeof data.id !== 'string') throw new Error('job without a mail id');
  return data.id;
};

/** The auth module's jobs: the account lookups and mail the public endpoints leave for later. */
export function authJobs(deps: AppDeps): Record<string, JobHandler> {
  return {
    [queues.authResetMail]: (data) => mailResetCode(deps, emailOf(data)),
    [queues.authActivationMail]: (data) => mailActivationCode(deps, emailOf(data)),
    // The notice row committed with the sign-up's answer; delivering it is the mailer's.
    [queues.authSignupNotice]: (data) => deps.mailer.dispatch([mailIdOf(data)]),
    // Account notices (ADR 058): committed with the change they report.
    [queues.authNotice]: (data) => deps.mailer.dispatch([mailIdOf(data)]),
  };
}
