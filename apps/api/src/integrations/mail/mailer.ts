import { and, desc, eq, lt, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { newId } from '../../lib.ts';
import type { MailTransport } from './port.ts';
import { mailOutbox } from './tables.ts';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  replyTo?: string;
}

export const MAX_MAIL_ATTEMPTS = 5;

/**
 * Transactional outbox: `enqueue` writes the message in the caller's transaction, so a code and
 * its e-mail commit together; `deliver` (run by a job) hands it to the transport exactly once.
 */
export class Mailer {
  constructor(
    private readonly db: Db,
    private readonly transport: MailTransport,
    private readonly from: string,
    /** Asks the job queue to deliver now; rows not kicked are picked up by the sweep. */
    private readonly kick: (ids: string[]) => Promise<void>,
  ) {}

  async enqueue(tx: Tx, mail: OutgoingMail): Promise<string> {
    const id = newId('mail');
    await tx
      .insert(mailOutbox)
      .values({ id, ...mail, html: mail.html ?? null, replyTo: mail.replyTo ?? null });
    return id;
  }

  /** Call after the enqueuing transaction committed. */
  async dispatch(ids: string[]): Promise<void> {
    if (ids.length) await this.kick(ids);
  }

  /** Delivers one pending message; a row lock makes concurrent deliveries of one id a no-op. */
  async deliver(id: string): Promise<'sent' | 'logged' | 'skipped'> {
    return this.db.transaction(async (tx) => {
      const rows = await tx
        .select()
        .from(mailOutbox)
        .where(and(eq(mailOutbox.id, id), eq(mailOutbox.status, 'pending')))
        .for('update', { skipLocked: true });
      const row = rows[0];
      if (!row) return 'skipped';
      try {
        await this.transport.send({
          from: this.from,
          to: row.to,
          subject: row.subject,
          text: row.text,
          html: row.html,
          replyTo: row.replyTo,
        });
      } catch (err) {
        const attempts = row.attempts + 1;
        await tx
          .update(mailOutbox)
          .set({
            attempts,
            lastError: err instanceof Error ? err.message.slice(0, 500) : 'send failed',
            status: attempts >= MAX_MAIL_ATTEMPTS ? 'failed' : 'pending',
          })
          .where(eq(mailOutbox.id, id));
        if (attempts >= MAX_MAIL_ATTEMPTS) return 'skipped';
        throw err;
      }
      const status = this.transport.kind === 'smtp' ? 'sent' : 'logged';
      await tx
        .update(mailOutbox)
        .set({ status, attempts: row.attempts + 1, sentAt: new Date() })
        .where(eq(mailOutbox.id, id));
      return status;
    });
  }

  /** Ids of messages left pending for longer than `olderThanMs` (crash between commit and kick). */
  async stale(olderThanMs: number, limit = 100): Promise<string[]> {
    const rows = await this.db
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(
        and(
          eq(mailOutbox.status, 'pending'),
          lt(mailOutbox.createdAt, sql`now() - make_interval(secs => ${olderThanMs / 1000})`),
        ),
      )
      .limit(limit);
    return rows.map((r) => r.id);
  }

  /** Latest messages, newest first: the local-environment mail viewer. */
  async recent(limit = 50) {
    return this.db.select().from(mailOutbox).orderBy(desc(mailOutbox.createdAt)).limit(limit);
  }
}
