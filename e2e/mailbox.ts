import { appendFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const SMTP_PORT = Number(process.env.E2E_SMTP_PORT ?? 2526);

/**
 * Where the one SMTP capture (e2e/mail-capture.ts, started once per run in globalSetup) appends
 * each mail as a JSON line, so every worker reads the same mailbox (one SMTP port per worker would
 * clash). Keyed by port: two checkouts running their suites side by side keep apart.
 */
export const MAIL_FILE = path.join(tmpdir(), `tradeshelf-e2e-mail-${SMTP_PORT}.jsonl`);

interface Mail {
  to: string[];
  subject: string;
  replyTo: string | null;
  /** The text, decoded (links in account mails are read from it). */
  text?: string;
}

export function recordMail(mail: Mail): void {
  appendFileSync(MAIL_FILE, JSON.stringify(mail) + '\n');
}

function mails(): Mail[] {
  let text: string;
  try {
    text = readFileSync(MAIL_FILE, 'utf8');
  } catch {
    return [];
  }
  // A line being appended at this moment is read on the next poll.
  return text
    .split('\n')
    .filter((line) => line.endsWith('}'))
    .map((line) => JSON.parse(line) as Mail);
}

/** The mail the app's real nodemailer transport delivered over loopback SMTP this run. */
export const mailbox = {
  /** Newest 6-digit code mailed to `to`, or null. */
  codeFor(to: string): string | null {
    const all = mails();
    for (let i = all.length - 1; i >= 0; i--) {
      const m = all[i]!;
      const code = /code: (\d{6})/.exec(m.subject)?.[1];
      if (m.to.includes(to) && code) return code;
    }
    return null;
  },
  /** The newest link to `path` (with its query) in a mail to `to`, as a path, or null. */
  linkTo(to: string, path: string): string | null {
    const all = mails();
    const escaped = path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    for (let i = all.length - 1; i >= 0; i--) {
      const m = all[i]!;
      const link = new RegExp(`https?://[^/\\s]+(${escaped}\\?\\S+)`).exec(m.text ?? '')?.[1];
      if (m.to.includes(to) && link) return link;
    }
    return null;
  },
  /** Subjects (unfolded) and Reply-To of every mail sent to `to`, oldest first. */
  mailsTo(to: string): Array<{ subject: string; replyTo: string | null }> {
    return mails()
      .filter((m) => m.to.includes(to))
      .map(({ subject, replyTo }) => ({ subject, replyTo }));
  },
};
