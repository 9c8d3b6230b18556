export * from './errors.ts';
export * from './common.ts';
export * from './route.ts';
export * from './auth.ts';
export * from './users.ts';
export * from './analytics.ts';
export * from './catalog.ts';
export * from './orders.ts';
export * from './support.ts';
export * from './membership.ts';
export * from './discord.ts';
export * from './courses.ts';
export * from './licences.ts';
export * from './tradingview.ts';
export * from './affiliates.ts';
export * from './reviews.ts';
export * from './rules/username.ts';
export * from './rules/password.ts';
export * from './rules/code.ts';
export * from './rules/coupon.ts';
export * from './rules/ref-id.ts';
export * from './rules/text.ts';
export * from './endpoints.ts';

import { analyticsRoutes } from './analytics.ts';
import { authRoutes } from './auth.ts';
import { catalogRoutes } from './catalog.ts';
import { ordersRoutes } from './orders.ts';
import { supportRoutes } from './support.ts';
import { membershipRoutes } from './membership.ts';
import { discordRoutes } from './discord.ts';
import { coursesRoutes } from './courses.ts';
import { licencesRoutes } from './licences.ts';
import { tradingviewRoutes } from './tradingview.ts';
import { affiliatesRoutes } from './affiliates.ts';
import { reviewsRoutes } from './reviews.ts';
import { usersRoutes } from './users.ts';

/** Every call of the API, by name. */
export const routes = {
  ...authRoutes,
  ...usersRoutes,
  ...analyticsRoutes,
  ...catalogRoutes,
  ...ordersRoutes,
  ...supportRoutes,
  ...membershipRoutes,
  ...discordRoutes,
  ...coursesRoutes,
  ...licencesRoutes,
  ...tradingviewRoutes,
  ...affiliatesRoutes,
  ...reviewsRoutes,
} as const;
export type RouteName = keyof typeof routes;
