import nodemailer, { type Transporter } from 'nodemailer';

export interface MailMessage {
  from: string;
  to: string;
  subject: string;
  text: string;
  html?: string | null;
  /** Where replies go when that is not the sender (e.g. support mail replies to the customer). */
  replyTo?: string | null;
}

/** The mail port: one call, one message. */
export interface MailTransport {
  readonly kind: 'smtp' | 'log';
  send(message: MailMessage): Promise<void>;
  close?(): void;
}

/** Real adapter: SMTP through nodemailer (`smtp://user:pass@host:port`, `smtps://…`). */
export class SmtpTransport implements MailTransport {
  readonly kind = 'smtp' as const;
  private readonly transporter: Transporter;
  constructor(url: string) {
    this.transporter = nodemailer.createTransport(url);
  }
  async send(message: MailMessage): Promise<void> {
    await this.transporter.sendMail({
      from: message.from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      ...(message.html ? { html: message.html } : {}),
      ...(message.replyTo ? { replyTo: message.replyTo } : {}),
    });
  }
  close(): void {
    this.transporter.close();
  }
}

/** Local adapter: no SMTP configured, so the message is written to the log (and stays in the outbox). */
export class LogTransport implements MailTransport {
  readonly kind = 'log' as const;
  close(): void {}
  constructor(private readonly log: (obj: object, msg: string) => void) {}
  async send(message: MailMessage): Promise<void> {
    this.log(
      {
        to: message.to,
        subject: message.subject,
        text: message.text,
        ...(message.replyTo ? { replyTo: message.replyTo } : {}),
      },
      'mail (outbox only; set SMTP_URL to send)',
    );
  }
}
