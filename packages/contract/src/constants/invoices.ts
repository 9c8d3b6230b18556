/**
 * Receipts and invoices as PDF (issue 33, ADR 060): the seller's business details, the buyer's
 * billing details. Plain values, so browser code can use them.
 */
export const BUSINESS_NAME_MAX = 120;
/** An address is up to this many lines, each up to ADDRESS_LINE_MAX characters. */
export const ADDRESS_LINES_MAX = 6;
export const ADDRESS_LINE_MAX = 80;
export const TAX_ID_MAX = 32;
export const TAX_NOTE_MAX = 200;
/** A VAT, GST, EIN or similar number: letters, digits, spaces and - . / only. */
export const taxIdPattern = /^[A-Za-z0-9][A-Za-z0-9 ./-]*$/;

export const invoiceMessages = {
  nameLength: `Keep the name under ${BUSINESS_NAME_MAX + 1} characters.`,
  addressShape: `Use at most ${ADDRESS_LINES_MAX} lines of up to ${ADDRESS_LINE_MAX} characters.`,
  taxIdShape: `A tax number has up to ${TAX_ID_MAX} letters, digits, spaces, dots, dashes or slashes.`,
  taxNoteLength: `Keep the tax note under ${TAX_NOTE_MAX + 1} characters.`,
  unreadable: 'Remove the control characters.',
  businessSaved: 'Business details saved. New and past invoices show them.',
  billingSaved: 'Billing details saved. Your receipts show them.',
} as const;
