import {
  AFFILIATE_COOKIE_DAYS_MAX,
  supportMessages as m,
  type contactRequest,
  type PlatformTerms,
} from '@tradeshelf/contract';
import type { z } from 'zod';
import type { AppDeps } from '../../deps.ts';
import type { OutgoingMail } from '../../integrations/mail/mailer.ts';
import { newId } from '../../lib.ts';
import { AppError } from '../../platform/errors.ts';
import { addressKey, type RateRule } from '../../platform/rate-limit.ts';
import { openReferralWindows } from '../affiliates/index.ts';
import * as catalog from '../catalog/index.ts';
import { currentPlan } from '../membership/index.ts';
import * as users from '../users/index.ts';
import * as repo from './repository.ts';

type ContactInput = z.output<typeof contactRequest>;

/** Contact messages a client address, and an e-mail address, may send. */
export const contactRules = {
  ip: { name: 'contact:ip', limit: 10, windowSeconds: 60 * 60 },
  email: { name: 'contact:email', limit: 5, windowSeconds: 60 * 60 },
} as const satisfies Record<string, RateRule>;

export async function platformTerms(deps: AppDeps): Promise<PlatformTerms> {
  return {
    platformFee: { bps: deps.config.PLATFORM_FEE_BPS, fixed: deps.config.PLATFORM_FEE_FIXED },
    supportEmail: deps.config.SUPPORT_EMAIL,
    referralWindow: {
      maxDays: AFFILIATE_COOKIE_DAYS_MAX,
      open: await openReferralWindows(deps.database.db),
    },
  };
}

/**
 * Stores a contact message and mails it to support and to the vendor it names (both reply to the
 * sender), then confirms to the sender. The answer is the same whether or not the e-mail has an
 * account, and for a message caught by the spam trap, which is neither stored nor sent.
 */
export async function contact(deps: AppDeps, ip: string, input: ContactInput): Promise<void> {
  await deps.limiter.consume([
    { rule: contactRules.ip, key: addressKey(ip) },
    { rule: contactRules.email, key: input.email },
  ]);
  if (input.website?.trim()) return;

  const vendor = input.vendorUrl ? await catalog.vendorContact(deps, input.vendorUrl) : null;
  if (input.vendorUrl && !vendor)
    throw new AppError('validation_failed', m.vendorUnknown, { vendorUrl: m.vendorUnknown });
  const vendorEmail = vendor ? await users.emailOf(deps, vendor.userId) : null;
  const account = await users.accountByEmail(deps, input.email);
  // Members' messages come first (ADR 027). Going by the e-mail is safe: the reply goes to that
  // address, so naming a member's e-mail gains a stranger nothing.
  const member = account ? await currentPlan(deps, account.id) : null;

  const message = {
    id: newId('msg'),
    name: input.name,
    email: input.email,
    subject: input.subject,
    message: input.message,
    orderRef: input.order || null,
    vendorId: vendor?.id ?? null,
    userId: account?.id ?? null,
    ip,
    priority: member !== null,
  };
  const mails: OutgoingMail[] = [
    {
      to: deps.config.SUPPORT_EMAIL,
      replyTo: input.email,
      subject: member
        ? `[Priority: ${member.plan.name}, reply within ${member.plan.supportReplyHours} h] Contact form: ${input.subject}`
        : `Contact form: ${input.subject}`,
      text: [
        `From: ${input.name} <${input.email}>`,
        `Account: ${account ? `${account.id}${account.emailVerified ? '' : ' (e-mail not verified)'}` : 'none with this e-mail'}`,
        ...(member
          ? [
              `Plan: ${member.plan.name} (priority support, reply within ${member.plan.supportReplyHours} hours)`,
            ]
          : []),
        ...(message.orderRef ? [`Order: ${message.orderRef}`] : []),
        ...(vendor ? [`Vendor: ${vendor.displayName} (/v/${vendor.vendorUrl}), sent a copy`] : []),
        `Reference: ${message.id}`,
        `Sent from: ${ip}`,
        '',
        input.message,
        '',
        `Reply to this e-mail to answer ${input.name}.`,
      ].join('\n'),
    },
  ];
  if (vendor && vendorEmail)
    mails.push({
      to: vendorEmail,
      replyTo: input.email,
      subject: `A customer wrote to you on Tradeshelf: ${input.subject}`,
      text: [
        `${input.name} <${input.email}> sent this message to ${vendor.displayName} through the Tradeshelf contact form. Tradeshelf support has a copy.`,
        ...(message.orderRef ? [`Order: ${message.orderRef}`] : []),
        `Reference: ${message.id}`,
        '',
        input.message,
        '',
        'Reply to this e-mail to answer them directly.',
      ].join('\n'),
    });
  // The form can name any address: the confirmation repeats nothing the sender typed, so it
  // cannot carry someone else's text to a stranger's inbox.
  mails.push({
    to: input.email,
    replyTo: deps.config.SUPPORT_EMAIL,
    subject: `We received your message (${message.id})`,
    text: [
      `Thanks for writing to Tradeshelf support. Your message reached us on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC; its reference is ${message.id}.`,
      ...(vendor
        ? [`A copy went to ${vendor.displayName}, who may also reply to you directly.`]
        : []),
      '',
      'We reply to this address. Reply to this e-mail if you want to add anything.',
      '',
      'If you did not write to us, ignore this e-mail: nothing about your account has changed.',
    ].join('\n'),
  });

  const ids = await deps.database.db.transaction(async (tx) => {
    await repo.insertMessage(tx, message);
    const out: string[] = [];
    for (const mail of mails) out.push(await deps.mailer.enqueue(tx, mail));
    return out;
  });
  await deps.mailer.dispatch(ids);
}
