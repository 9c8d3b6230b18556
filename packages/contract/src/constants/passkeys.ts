/**
 * Passkeys (WebAuthn, issue 33, ADR 054): limits and the messages the server answers with. Plain
 * values, so browser code can use them.
 */

/** Passkeys one account may hold: more than anyone has devices, and a bound on what a list reads. */
export const PASSKEYS_MAX = 20;
/** A passkey's name, as its owner types it ("Work laptop"). */
export const PASSKEY_NAME_MAX = 60;

export const passkeyMessages = {
  nameRequired: 'Name the passkey, e.g. “Work laptop”.',
  nameTooLong: `Keep the name under ${PASSKEY_NAME_MAX} characters.`,
  added: 'Passkey added. You can sign in with it now.',
  renamed: 'Passkey renamed.',
  removed: 'Passkey removed. It no longer signs you in.',
  notFound: 'That passkey was not found. It may have been removed already.',
  expired: 'This passkey request expired or was already used. Try again.',
  notAccepted: 'That passkey could not sign you in. Try again, or log in with your password.',
  notAdded: 'That passkey could not be added. Try again.',
  alreadyAdded: 'This passkey is already on your account.',
  tooMany: `An account can hold ${PASSKEYS_MAX} passkeys. Remove one first.`,
  noneOnAccount: 'This account has no passkey. Enter a code instead.',
  // Said by the web app when the browser, not the server, refuses.
  cancelled: 'The passkey prompt was closed or timed out. Try again when you are ready.',
  unsupported: 'This browser cannot use passkeys here.',
} as const;
