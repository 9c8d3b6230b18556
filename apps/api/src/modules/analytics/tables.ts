import { sql } from 'drizzle-orm';
import { bigint, index, pgTable, text } from 'drizzle-orm/pg-core';
import { ts } from '../../db/columns.ts';

export const analyticsEvents = pgTable(
  'analytics_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    type: text('type').notNull(),
    anonymousId: text('anonymous_id').notNull(),
    userId: text('user_id'),
    path: text('path'),
    referrer: text('referrer'),
    title: text('title'),
    userAgent: text('user_agent'),
    occurredAt: ts('occurred_at').notNull(),
    receivedAt: ts('received_at').notNull().defaultNow(),
  },
  (t) => [
    index('analytics_events_type_time_idx').on(t.type, t.occurredAt),
    // Product page views (`/p/<id>/<slug>?…`) by product: conversion (ADR 043).
    index('analytics_events_product_view_idx')
      .on(sql`(split_part(split_part(${t.path}, '?', 1), '/', 3))`, t.occurredAt)
      .where(sql`${t.type} = 'page_view' and ${t.path} like '/p/%'`),
  ],
);
