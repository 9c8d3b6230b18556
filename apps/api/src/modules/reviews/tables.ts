import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, smallint, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { productColumn, products, vendorColumn } from '../catalog/tables.ts';
import { userColumn } from '../users/tables.ts';
import { idColumn, timestamps, ts } from '../../db/columns.ts';

/**
 * One review per buyer and product (ADR 036). `vendor_id` is the product's vendor, kept so a
 * storefront's reviews are one index range. A review whose purchase was undone is hidden, not
 * deleted: its author still sees it, and saving it again after buying again publishes it.
 */
export const reviews = pgTable(
  'reviews',
  {
    id: idColumn(),
    productId: productColumn(),
    vendorId: vendorColumn(),
    userId: userColumn(),
    rating: smallint('rating').notNull(),
    /** As the buyer wrote it: escaping is the renderer's job. */
    text: text('text').notNull(),
    ...timestamps(),
    editedAt: ts('edited_at'),
    hiddenReason: text('hidden_reason', { enum: ['refunded', 'disputed', 'revoked'] }),
    hiddenAt: ts('hidden_at'),
    replyText: text('reply_text'),
    repliedAt: ts('replied_at'),
  },
  (t) => [
    uniqueIndex('reviews_product_user_key').on(t.productId, t.userId),
    check('reviews_rating_check', sql`${t.rating} between 1 and 5`),
    index('reviews_vendor_newest_idx')
      .on(t.vendorId, t.createdAt.desc(), t.id.desc())
      .where(sql`${t.hiddenReason} is null`),
    index('reviews_product_newest_idx')
      .on(t.productId, t.createdAt.desc(), t.id.desc())
      .where(sql`${t.hiddenReason} is null`),
    index('reviews_user_idx').on(t.userId),
  ],
);

/**
 * Published reviews per product and star, recounted in every transaction that changes the
 * product's reviews; its row is also the lock those transactions take turns on.
 */
export const reviewStats = pgTable(
  'review_stats',
  {
    productId: text('product_id')
      .primaryKey()
      .references(() => products.id, { onDelete: 'cascade' }),
    vendorId: vendorColumn(),
    count1: integer('count_1').notNull().default(0),
    count2: integer('count_2').notNull().default(0),
    count3: integer('count_3').notNull().default(0),
    count4: integer('count_4').notNull().default(0),
    count5: integer('count_5').notNull().default(0),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('review_stats_vendor_idx').on(t.vendorId)],
);
