import { z } from 'zod';
import { emailSchema, textField } from './common.ts';
import {
  CONTACT_MESSAGE_MAX,
  CONTACT_MESSAGE_MIN,
  CONTACT_NAME_MAX,
  CONTACT_REFERENCE_MAX,
  CONTACT_SUBJECT_MAX,
  supportMessages as m,
} from './constants/support.ts';
import { defineRoute } from './route.ts';
import { hasUnreadableCharacters } from './rules/text.ts';

export * from './constants/support.ts';

/** An optional reference (order, vendor): empty means none. */
const reference = (pattern: RegExp, message: string) =>
  z
    .string()
    .refine((v) => !hasUnreadableCharacters(v), { error: m.unreadable, abort: true })
    .trim()
    .max(CONTACT_REFERENCE_MAX, message)
    .regex(pattern, message)
    .optional();

export const contactRequest = z.object({
  name: textField({ required: m.nameRequired, max: CONTACT_NAME_MAX, tooLong: m.nameTooLong }),
  email: z
    .string({ error: m.emailRequired })
    .refine((v) => !hasUnreadableCharacters(v), { error: m.unreadable, abort: true })
    .pipe(emailSchema),
  subject: textField({
    required: m.subjectRequired,
    max: CONTACT_SUBJECT_MAX,
    tooLong: m.subjectTooLong,
  }),
  message: textField({
    required: m.messageTooShort,
    min: CONTACT_MESSAGE_MIN,
    tooShort: m.messageTooShort,
    max: CONTACT_MESSAGE_MAX,
    tooLong: m.messageTooLong,
    multiline: true,
  }),
  /** An order id or receipt number the message is about. */
  order: reference(/^[A-Za-z0-9_-]*$/, m.orderFormat),
  /** The storefront address (`/v/{vendorUrl}`) of a vendor the message is for: they get a copy. */
  vendorUrl: reference(/^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)?$/i, m.vendorFormat),
  /** The spam trap (CONTACT_TRAP_FIELD): hidden from people, so it stays empty. */
  website: z.string().max(2000).optional(),
});
export type ContactRequest = z.input<typeof contactRequest>;

export const platformTerms = z
  .object({
    /** What the platform keeps of each payment: `bps` of the total, rounded down, plus `fixed`. */
    platformFee: z.object({
      bps: z.number().int(),
      /** Minor units of the payment's currency (30 = $0.30 on a US-dollar sale). */
      fixed: z.number().int(),
    }),
    /** Where support answers from (the contact form mails it). */
    supportEmail: z.string(),
    /**
     * How long an affiliate's referral is remembered: each vendor sets it, 1 to `maxDays` days; `open`
     * is the shortest and longest of the programmes open now (null when none is).
     */
    referralWindow: z.object({
      maxDays: z.number().int(),
      open: z.object({ minDays: z.number().int(), maxDays: z.number().int() }).nullable(),
    }),
  })
  .meta({ id: 'PlatformTerms' });
export type PlatformTerms = z.infer<typeof platformTerms>;

export const supportRoutes = {
  contact: defineRoute({
    method: 'POST',
    path: '/api/v1/contact',
    auth: 'none',
    summary:
      'Send a message to support (and to the vendor named by `vendorUrl`); the sender gets a confirmation. Answers the same whether or not the e-mail has an account.',
    tags: ['support'],
    status: 202,
    body: contactRequest,
    response: z.object({ message: z.string() }),
  }),
  platformTerms: defineRoute({
    method: 'GET',
    path: '/api/v1/platform/terms',
    auth: 'none',
    summary: 'The platform fee vendors pay on each payment, and the support address.',
    tags: ['support'],
    status: 200,
    response: platformTerms,
  }),
} as const;
