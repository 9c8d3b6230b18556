/** Contact form limits, the spam-trap field's name and messages: plain values, no zod. */
import { UNREADABLE_TEXT } from '../rules/text.ts';

export const CONTACT_NAME_MAX = 100;
export const CONTACT_SUBJECT_MAX = 150;
export const CONTACT_MESSAGE_MIN = 10;
export const CONTACT_MESSAGE_MAX = 5000;
export const CONTACT_REFERENCE_MAX = 64;

/**
 * The spam trap: a field the form hides from people (and from screen readers), so a value in it
 * means a robot filled every field it found. Such a message gets the normal answer and goes nowhere.
 */
export const CONTACT_TRAP_FIELD = 'website';

export const supportMessages = {
  received:
    'Thanks, your message is with our support team. We have e-mailed you a confirmation and will reply to that address.',
  nameRequired: 'Enter your name.',
  nameTooLong: `Keep your name to ${CONTACT_NAME_MAX} characters.`,
  emailRequired: 'Enter your e-mail address.',
  subjectRequired: 'Enter a subject.',
  subjectTooLong: `Keep the subject to ${CONTACT_SUBJECT_MAX} characters.`,
  messageTooShort: `Tell us a little more: at least ${CONTACT_MESSAGE_MIN} characters.`,
  messageTooLong: `Keep the message to ${CONTACT_MESSAGE_MAX} characters.`,
  unreadable: UNREADABLE_TEXT,
  orderFormat: 'Enter the order or receipt number as shown on your receipt (e.g. TS-2026-001234).',
  vendorFormat: "Enter the vendor's storefront address, e.g. alpha-edge for /v/alpha-edge.",
  vendorUnknown: 'We could not find a vendor at that address.',
} as const;
