// Every module's tables, for drizzle-kit and the typed client. Modules import only their own.
export * from '../modules/users/tables.ts';
export * from '../modules/auth/tables.ts';
export * from '../modules/analytics/tables.ts';
export * from '../integrations/mail/tables.ts';
export * from '../modules/catalog/tables.ts';
export * from '../modules/orders/tables.ts';
export * from '../modules/access/tables.ts';
export * from '../modules/licences/tables.ts';
export * from '../modules/affiliates/tables.ts';
export * from '../integrations/payments/tables.ts';
export * from '../modules/support/tables.ts';
export * from '../events/tables.ts';
export * from '../modules/membership/tables.ts';
export * from '../integrations/chat/tables.ts';
export * from '../modules/courses/tables.ts';
export * from '../modules/tradingview/tables.ts';
export * from '../modules/reviews/tables.ts';
