// The account notices of ADR 058: what changed, when, and what to do if it was not the owner.
// Each is written to the outbox in the transaction of the change it reports (ADR 006).
import { EMAIL_CHANGE_CONFIRM_PATH, EMAIL_CHANGE_LINK_HOURS } from '@tradeshelf/contract';
import type { OutgoingMail } from '../../integrations/mail/mailer.ts';

const NOT_YOU =
  'If it was not you, reset your password now from the log-in page ("Forgot password?"), then log out the devices you do not know from your account page (Devices).';

const stamp = (at: Date) => `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

export function passwordChangedMail(to: string, origin: string, at: Date): OutgoingMail {
  return {
    to,
    subject: 'Your Tradeshelf password was changed',
    text: [
      `The password of your Tradeshelf account was changed on ${stamp(at)}. Every device signed in before was logged out.`,
      '',
      'If it was you, there is nothing to do.',
      '',
      `If it was not you, someone may know your e-mail password too: secure your mailbox, then reset your Tradeshelf password at ${origin}/forgot-password and turn on two-factor authentication at ${origin}/account.`,
    ].join('\n'),
  };
}

export function newDeviceMail(
  to: string,
  origin: string,
  sign: { device: string; address: string; place: string | null; at: Date },
): OutgoingMail {
  return {
    to,
    subject: 'New sign-in to your Tradeshelf account',
    text: [
      'Your Tradeshelf account was just signed in to from a device it has not been used on before:',
      '',
      `Device: ${sign.device}`,
      // The place is the IP database's guess (ADR 065): said beside the address, never instead.
      `Address: ${sign.address}${sign.place ? ` (${sign.place})` : ''}`,
      `When: ${stamp(sign.at)}`,
      '',
      'If it was you, there is nothing to do.',
      '',
      `${NOT_YOU} ${origin}/account`,
    ].join('\n'),
  };
}

export function twoFactorMail(to: string, origin: string, on: boolean): OutgoingMail {
  return {
    to,
    subject: on
      ? 'Two-factor authentication is on for your Tradeshelf account'
      : 'Two-factor authentication was turned off for your Tradeshelf account',
    text: [
      on
        ? 'Two-factor authentication was turned on: signing in now also needs a code from your authenticator app, or one of your recovery codes.'
        : 'Two-factor authentication was turned off: your password alone now signs in.',
      '',
      'If it was you, there is nothing to do.',
      '',
      `${NOT_YOU} ${origin}/account`,
    ].join('\n'),
  };
}

export function recoveryCodesMail(to: string, origin: string): OutgoingMail {
  return {
    to,
    subject: 'Your Tradeshelf recovery codes were replaced',
    text: [
      'A new set of two-factor recovery codes was made for your Tradeshelf account. The old codes no longer work.',
      '',
      'If it was you, keep the new codes somewhere safe.',
      '',
      `${NOT_YOU} ${origin}/account`,
    ].join('\n'),
  };
}

export function passkeyMail(
  to: string,
  origin: string,
  name: string,
  added: boolean,
): OutgoingMail {
  return {
    to,
    subject: added
      ? 'A passkey was added to your Tradeshelf account'
      : 'A passkey was removed from your Tradeshelf account',
    text: [
      added
        ? `A passkey named “${name}” was added to your Tradeshelf account. It signs in without a password, and can stand in for a two-factor code.`
        : `The passkey named “${name}” was removed from your Tradeshelf account. It no longer signs in.`,
      '',
      'If it was you, there is nothing to do.',
      '',
      `${NOT_YOU} ${origin}/account`,
    ].join('\n'),
  };
}

/** To the new address: the link that makes the change. */
export function emailChangeLinkMail(to: string, origin: string, token: string): OutgoingMail {
  const link = `${origin}${EMAIL_CHANGE_CONFIRM_PATH}?token=${encodeURIComponent(token)}`;
  return {
    to,
    subject: 'Confirm your new Tradeshelf e-mail address',
    text: [
      'Someone asked to use this address for their Tradeshelf account. To confirm it, open this link:',
      '',
      link,
      '',
      `It works once, for ${EMAIL_CHANGE_LINK_HOURS} hours. Until it is opened, the account keeps its current address.`,
      '',
      'If you did not ask for this, ignore this e-mail: nothing changes.',
    ].join('\n'),
  };
}

/**
 * To an address that already has an account (ADR 003's notice, for e-mail changes): no link, and
 * the requester was told exactly what a free address tells them.
 */
export function emailChangeTakenMail(to: string, origin: string): OutgoingMail {
  return {
    to,
    subject: 'Someone tried to move a Tradeshelf account to your e-mail',
    text: [
      'Someone asked to change the e-mail of a Tradeshelf account to this address, which already has an account of its own. Nothing has changed, and it cannot: an address belongs to one account.',
      '',
      `If it was you, log in with this address instead, or choose "Forgot password?" at ${origin}/login.`,
      '',
      'If it was not you, ignore this e-mail.',
    ].join('\n'),
  };
}

/** To the current address when a change is asked for, and again when it is made. */
export function emailChangeNoticeMail(
  to: string,
  origin: string,
  newEmail: string,
  done: boolean,
): OutgoingMail {
  return {
    to,
    subject: done
      ? 'Your Tradeshelf e-mail address was changed'
      : 'A change of your Tradeshelf e-mail address was requested',
    text: [
      done
        ? `Your Tradeshelf account now uses ${newEmail}. Mail about it no longer comes to this address.`
        : `Someone signed in to your Tradeshelf account asked to change its e-mail address to ${newEmail}. It changes only when the link sent to that address is opened (within ${EMAIL_CHANGE_LINK_HOURS} hours).`,
      '',
      'If it was you, there is nothing to do.',
      '',
      `If it was not you, reset your password now at ${origin}/forgot-password and log out the devices you do not know at ${origin}/account${done ? '; then write to support to get your address back.' : ': a new password stops the change.'}`,
    ].join('\n'),
  };
}
