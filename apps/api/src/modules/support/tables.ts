import { boolean, index, pgTable, text } from 'drizzle-orm/pg-core';
import { vendors } from '../catalog/tables.ts';
import { users } from '../users/tables.ts';
import { idColumn, ts } from '../../db/columns.ts';

/** Every contact-form message, as sent: the record support works from, whatever the mail did. */
export const supportMessages = pgTable(
  'support_messages',
  {
    id: idColumn(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    subject: text('subject').notNull(),
    message: text('message').notNull(),
    /** The order id or receipt number the sender gave, as given. */
    orderRef: text('order_ref'),
    /** The vendor the sender named; they got a copy. */
    vendorId: text('vendor_id').references(() => vendors.id, { onDelete: 'set null' }),
    /** The account with the sender's e-mail, if any (for support; the sender is told nothing). */
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The sender's address, for abuse reports. */
    ip: text('ip'),
    /** Sent from a Premium or Pro Plus member's e-mail: answered first (ADR 027). */
    priority: boolean('priority').notNull().default(false),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('support_messages_email_idx').on(t.email, t.createdAt),
    index('support_messages_created_idx').on(t.createdAt),
  ],
);
