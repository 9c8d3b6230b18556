import { once } from 'node:events';
import { SMTPServer } from 'smtp-server';

export const SMTP_PORT = Number(process.env.E2E_SMTP_PORT ?? 2526);

export interface Mailbox {
  /** Newest 6-digit code mailed to `to`, or null. */
  codeFor(to: string): string | null;
  /** Subjects (unfolded) and Reply-To of every mail sent to `to`, oldest first. */
  mailsTo(to: string): Array<{ subject: string; replyTo: string | null }>;
  close(): Promise<void>;
}

/** The loopback SMTP server the app's real nodemailer transport delivers to. */
export async function openMailbox(port: number): Promise<Mailbox> {
  const mails: Array<{ to: string[]; subject: string; replyTo: string | null }> = [];
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
        mails.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          subject: /^Subject: (.*)$/m.exec(head)?.[1]?.trim() ?? '',
          replyTo: /^Reply-To: (.*)$/im.exec(head)?.[1]?.trim() ?? null,
        });
        callback();
      });
    },
  });
  server.listen(port, '127.0.0.1');
  await once(server.server, 'listening');
  return {
    codeFor(to) {
      for (let i = mails.length - 1; i >= 0; i--) {
        const m = mails[i]!;
        const code = /code: (\d{6})/.exec(m.subject)?.[1];
        if (m.to.includes(to) && code) return code;
      }
      return null;
    },
    mailsTo(to) {
      return mails
        .filter((m) => m.to.includes(to))
        .map(({ subject, replyTo }) => ({ subject, replyTo }));
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
