import { once } from 'node:events';
import { rmSync } from 'node:fs';
import { SMTPServer } from 'smtp-server';
import { MAIL_FILE, recordMail, SMTP_PORT } from './mailbox.ts';

/**
 * Playwright globalSetup: the loopback SMTP server the app delivers to, one for the whole run so
 * parallel workers share it; each mail goes to MAIL_FILE for e2e/mailbox.ts to read.
 */
export default async function captureMail(): Promise<() => Promise<void>> {
  rmSync(MAIL_FILE, { force: true });
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        // Long headers are folded onto continuation lines.
        const head = raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
        recordMail({
          to: session.envelope.rcptTo.map((r) => r.address),
          subject: /^Subject: (.*)$/m.exec(head)?.[1]?.trim() ?? '',
          replyTo: /^Reply-To: (.*)$/im.exec(head)?.[1]?.trim() ?? null,
        });
        callback();
      });
    },
  });
  server.listen(SMTP_PORT, '127.0.0.1');
  await once(server.server, 'listening');
  return () => new Promise((resolve) => server.close(() => resolve()));
}
