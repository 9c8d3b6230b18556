import {
  analyticsRoutes,
  vendorAnalyticsMessages,
  vendorAnalyticsRoutes,
} from '@tradeshelf/contract';
import type { FastifyInstance } from 'fastify';
import { addressKey, rules } from '../../platform/rate-limit.ts';
import { registerRoute } from '../../platform/routes.ts';
import { vendorRoutes } from '../catalog/index.ts';
import { analyticsEvents } from './tables.ts';
import { vendorAnalytics } from './vendor-analytics.ts';
import { vendorAnalyticsExport } from './vendor-analytics-export.ts';

export async function analyticsModule(app: FastifyInstance): Promise<void> {
  const deps = app.deps;
  const vendorRoute = vendorRoutes(app, vendorAnalyticsMessages.vendorsOnly);
  registerRoute(app, analyticsRoutes.track, async ({ body, auth, req }) => {
    await deps.limiter.consume([{ rule: rules.analyticsIp, key: addressKey(req.ip) }]);
    const userAgent = req.headers['user-agent']?.slice(0, 500) ?? null;
    await deps.database.db.insert(analyticsEvents).values(
      body.events.map((e) => ({
        type: e.type,
        anonymousId: e.anonymousId,
        // Only a verified token names the user; a payload's userId alone is not trusted.
        userId: auth?.sub ?? null,
        path: e.type === 'page_view' ? e.path : null,
        referrer: e.type === 'page_view' ? (e.referrer ?? null) : null,
        title: e.type === 'page_view' ? (e.title ?? null) : null,
        userAgent,
        occurredAt: new Date(e.occurredAt),
      })),
    );
    return { accepted: body.events.length };
  });
  // The vendor's analytics (issue 19, ADR 043).
  vendorRoute(vendorAnalyticsRoutes.vendorAnalytics, ({ query, vendorId, reply }) => {
    void reply.header('cache-control', 'private, no-store');
    return vendorAnalytics(deps, vendorId, query);
  });
  vendorRoute(vendorAnalyticsRoutes.vendorAnalyticsExport, async ({ query, vendorId, reply }) => {
    const { filename, csv } = await vendorAnalyticsExport(deps, vendorId, query);
    void reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${filename}"`)
      .header('cache-control', 'private, no-store');
    return csv as never;
  });
}
