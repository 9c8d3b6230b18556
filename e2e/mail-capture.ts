import { rmSync } from 'node:fs';
import { mailText, startLoopbackSmtp } from '../apps/api/test/smtp.ts';
import { MAIL_FILE, recordMail, SMTP_PORT } from './mailbox.ts';

/**
 * Playwright globalSetup: the loopback SMTP server the app delivers to (the API tests' own), one for
 * the whole run so parallel workers share it; each mail goes to MAIL_FILE for e2e/mailbox.ts to read.
 */
export default async function captureMail(): Promise<() => Promise<void>> {
  rmSync(MAIL_FILE, { force: true });
  const smtp = await startLoopbackSmtp({
    port: SMTP_PORT,
    onMail: ({ to, subject, replyTo, raw }) =>
      recordMail({ to, subject, replyTo, text: mailText(raw) }),
  });
  return smtp.close;
}
