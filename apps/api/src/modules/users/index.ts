// The users module's public entry (docs/architecture.md#boundaries): other modules import this file only.
// Users owns accounts (e-mail, password hash, roles, profile); auth owns sessions and codes (ADR 029).
export type { UserRow as Account } from './repository.ts';
export {
  findUserByEmail as findAccountByEmail,
  findUserById as findAccountById,
  insertUser as createAccount,
  updatePasswordHash as setPasswordHash,
  markEmailVerified,
  setEmail as setAccountEmail,
} from './repository.ts';
export { rolesOf } from './presenter.ts';
export { accountByEmail, emailOf, fillUsernameFrom } from './service.ts';
export { contactsOf, emailIn, idsMatching, usernameChangeableFrom } from './service.ts';
export { deletedEmailOf, forgetAccount, profileExport } from './account-data.ts';
export { lockUser as lockAccount } from './repository.ts';
export { billingOf } from './billing.ts';
