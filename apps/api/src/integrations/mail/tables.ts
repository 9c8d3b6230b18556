import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { idColumn, ts } from '../../db/columns.ts';

/** Every e-mail is written here first (in the caller's transaction) and delivered by a job. */
export const mailOutbox = pgTable('mail_outbox', {
  id: idColumn(),
  to: text('to').notNull(),
  subject: text('subject').notNull(),
  text: text('text').notNull(),
  html: text('html'),
  replyTo: text('reply_to'),
  /** pending → sent (SMTP) | logged (no SMTP configured) | failed (gave up). */
  status: text('status', { enum: ['pending', 'sent', 'logged', 'failed'] })
    .notNull()
    .default('pending'),
  attempts: integer('attempts').notNull().default(0),
  lastError: text('last_error'),
  createdAt: ts('created_at').notNull().defaultNow(),
  sentAt: ts('sent_at'),
});
