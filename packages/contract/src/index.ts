export * from './errors.ts';
export * from './common.ts';
export * from './format.ts';
export * from './route.ts';
export * from './auth.ts';
export * from './users.ts';
export * from './account.ts';
export * from './account-data.ts';
export * from './passkeys.ts';
export * from './invoices.ts';
export * from './analytics.ts';
export * from './catalog.ts';
export * from './orders.ts';
export * from './support.ts';
export * from './membership.ts';
export * from './discord.ts';
export * from './courses.ts';
export * from './licences.ts';
export * from './deliverables.ts';
export * from './tradingview.ts';
export * from './affiliates.ts';
export * from './reviews.ts';
export * from './vendor-sales.ts';
export * from './vendor-coupons.ts';
export * from './vendor-analytics.ts';
export * from './vendor-products.ts';
export * from './vendor-bundles.ts';
export * from './vendor-courses.ts';
export * from './vendor-licences.ts';
export * from './vendor-storefront.ts';
export * from './developers.ts';
export * from './constants/developers.ts';
export * from './alerts.ts';
export * from './constants/alerts.ts';
export * from './rules/username.ts';
export * from './rules/reserved-names.ts';
export * from './rules/password.ts';
export * from './rules/code.ts';
export * from './rules/coupon.ts';
export * from './rules/ref-id.ts';
export * from './rules/text.ts';
export * from './rules/timestamp.ts';
export * from './rules/vendor-sales.ts';
export * from './endpoints.ts';

import { analyticsRoutes } from './analytics.ts';
import { authRoutes } from './auth.ts';
import { accountRoutes } from './account.ts';
import { accountDataRoutes } from './account-data.ts';
import { passkeyRoutes } from './passkeys.ts';
import { invoicesRoutes } from './invoices.ts';
import { catalogRoutes } from './catalog.ts';
import { ordersRoutes } from './orders.ts';
import { supportRoutes } from './support.ts';
import { membershipRoutes } from './membership.ts';
import { discordRoutes } from './discord.ts';
import { coursesRoutes } from './courses.ts';
import { licencesRoutes } from './licences.ts';
import { deliverablesRoutes } from './deliverables.ts';
import { tradingviewRoutes } from './tradingview.ts';
import { affiliatesRoutes } from './affiliates.ts';
import { reviewsRoutes } from './reviews.ts';
import { vendorProductsRoutes } from './vendor-products.ts';
import { vendorBundlesRoutes } from './vendor-bundles.ts';
import { usersRoutes } from './users.ts';
import { vendorSalesRoutes } from './vendor-sales.ts';
import { vendorCouponsRoutes } from './vendor-coupons.ts';
import { vendorAnalyticsRoutes } from './vendor-analytics.ts';
import { vendorCoursesRoutes } from './vendor-courses.ts';
import { vendorLicencesRoutes } from './vendor-licences.ts';
import { vendorStorefrontRoutes } from './vendor-storefront.ts';
import { developersRoutes } from './developers.ts';
import { alertsRoutes } from './alerts.ts';

/** Every call of the API, by name. */
export const routes = {
  ...authRoutes,
  ...usersRoutes,
  ...accountRoutes,
  ...accountDataRoutes,
  ...passkeyRoutes,
  ...invoicesRoutes,
  ...analyticsRoutes,
  ...catalogRoutes,
  ...ordersRoutes,
  ...supportRoutes,
  ...membershipRoutes,
  ...discordRoutes,
  ...coursesRoutes,
  ...licencesRoutes,
  ...deliverablesRoutes,
  ...tradingviewRoutes,
  ...affiliatesRoutes,
  ...reviewsRoutes,
  ...vendorSalesRoutes,
  ...vendorCouponsRoutes,
  ...vendorAnalyticsRoutes,
  ...vendorProductsRoutes,
  ...vendorBundlesRoutes,
  ...vendorCoursesRoutes,
  ...vendorLicencesRoutes,
  ...vendorStorefrontRoutes,
  ...developersRoutes,
  ...alertsRoutes,
} as const;
export type RouteName = keyof typeof routes;
