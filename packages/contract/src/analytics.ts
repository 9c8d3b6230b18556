import { z } from 'zod';
import { timestampInput } from './common.ts';
import { ANALYTICS_BATCH_MAX } from './constants/analytics.ts';
import { defineRoute } from './route.ts';

export * from './constants/analytics.ts';

export const analyticsEvent = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('page_view'),
    anonymousId: z.string().min(8).max(64),
    path: z.string().min(1).max(2048),
    referrer: z.string().max(2048).optional(),
    title: z.string().max(300).optional(),
    occurredAt: timestampInput(),
  }),
  z.object({
    type: z.literal('identify'),
    anonymousId: z.string().min(8).max(64),
    userId: z.string().min(1).max(64),
    occurredAt: timestampInput(),
  }),
]);
export type AnalyticsEvent = z.infer<typeof analyticsEvent>;

export const analyticsRoutes = {
  track: defineRoute({
    method: 'POST',
    path: '/api/v1/analytics/events',
    auth: 'optional',
    summary: 'Record a batch of first-party analytics events (page views, identify).',
    tags: ['analytics'],
    status: 202,
    body: z.object({ events: z.array(analyticsEvent).min(1).max(ANALYTICS_BATCH_MAX) }),
    response: z.object({ accepted: z.number().int() }),
  }),
} as const;
