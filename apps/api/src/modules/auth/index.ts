// The auth module's public entry (docs/architecture.md#boundaries): other modules import this file only.
export { hashPassword } from './passwords.ts';
export { SessionDenials } from './denials.ts';
export { requireFreshCode as requireTwoFactorCode } from './two-factor.ts';
export { sweepEndedSessions } from './sweep.ts';
export { confirmOwner, endAccountSessions, securityExport } from './account-data.ts';
