import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  raw: string;
  subject: string;
  replyTo: string | null;
}

/** A received mail's text: the body after the headers, quoted-printable decoded when it is so. */
export function mailText(raw: string): string {
  const [head = '', ...rest] = raw.split(/\r?\n\r?\n/);
  const body = rest.join('\n\n');
  if (!/^Content-Transfer-Encoding:\s*quoted-printable/im.test(head)) return body;
  const bytes = body
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/**
 * A real SMTP server on loopback: the boundary where our mail leaves the app. The API tests take a
 * free port and read `inbox`; the e2e run (e2e/mail-capture.ts) takes its fixed port and `onMail`.
 */
export async function startLoopbackSmtp(
  options: { port?: number; onMail?: (mail: ReceivedMail) => void } = {},
) {
  const inbox: ReceivedMail[] = [];
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
        const mail = {
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
          subject: /^Subject: (.*)$/m.exec(head)?.[1]?.trim() ?? '',
          replyTo: /^Reply-To: (.*)$/im.exec(head)?.[1]?.trim() ?? null,
        };
        inbox.push(mail);
        options.onMail?.(mail);
        callback();
      });
    },
  });
  server.listen(options.port ?? 0, '127.0.0.1');
  await once(server.server, 'listening');
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    inbox,
    /** The newest 6-digit code sent to `to`. */
    codeFor(to: string): string | null {
      for (let i = inbox.length - 1; i >= 0; i--) {
        const mail = inbox[i]!;
        if (!mail.to.includes(to)) continue;
        const m = /code: (\d{6})/.exec(mail.subject);
        if (m) return m[1]!;
      }
      return null;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
