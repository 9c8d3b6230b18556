/**
 * Account controls (issue 33, ADR 058): sign-ins, e-mail and username changes, recovery codes.
 * Plain values, so browser code can use them (docs/product.md#account-controls).
 */

/** A confirmation link to a new e-mail address lasts this long and works once. */
export const EMAIL_CHANGE_LINK_HOURS = 24;
/** The page an e-mail-change link opens (`?token=`). */
export const EMAIL_CHANGE_CONFIRM_PATH = '/account/email/confirm';
/** A username changes at most once in this many days (choosing the first one does not count). */
export const USERNAME_CHANGE_DAYS = 30;
/** A name given up stays held for its last owner this many days, then anyone may take it. */
export const USERNAME_HOLD_DAYS = 30;

export const accountMessages = {
  sessionEnded: 'That device has been logged out.',
  othersEnded: 'Every other device has been logged out.',
  sessionNotFound: 'That sign-in was not found. It may have ended already.',
  emailChangeSent:
    'Check the new address: we sent it a link to confirm the change. It works for 24 hours. Your e-mail stays as it is until then.',
  emailSame: 'That is already your e-mail address.',
  emailConfirmed: 'Your e-mail address has been changed.',
  emailLinkInvalid:
    'This link has expired or was already used. Ask for a new one from your account page.',
  emailNoLongerFree:
    'That e-mail address can no longer be used for this account. Start again with another one.',
  twoFactorCodeNeeded: 'Enter the current code from your authenticator app.',
  recoveryCodesRegenerated:
    'New recovery codes are ready. Save them now: the old ones no longer work.',
  usernameTooSoon: (date: string) =>
    `You can change your username once every 30 days. Your next change is possible on ${date}.`,
} as const;
