// The auth module's public entry (ARCHITECTURE §2): other modules import this file only.
export { hashPassword } from './passwords.ts';
export { SessionDenials } from './denials.ts';
