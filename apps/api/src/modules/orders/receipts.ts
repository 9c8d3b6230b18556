// The mails a purchase sends: the receipt, and the duplicate-payment notice.
import { formatMoney, plans, type Purchase } from '@tradeshelf/contract';

export const mailMoney = (m: { amount: number; currency: string }) =>
  formatMoney(m.amount, m.currency, 'code');
export const mailDate = (iso: string) => iso.slice(0, 10);

/** Where each kind of thing bought is found (ADR 060): the mail links to it. */
const deliveredAt: Record<Purchase['entitlements'][number]['kind'], string> = {
  access: '/library',
  course_enrolment: '/courses',
  licence: '/apps',
  discord_role: '/library',
};

export function receiptMail(to: string, p: Purchase, origin: string) {
  const sub = p.subscription;
  const trialing = sub?.status === 'trialing';
  const lines = [
    `Thank you for your purchase from ${p.item.vendor.displayName}.`,
    '',
    `Receipt: ${p.receiptNumber}`,
    `Item: ${p.item.title}${sub ? ` (${p.scheme} plan)` : ''}`,
    `Price: ${mailMoney(p.subtotal)}`,
    ...(p.discount.amount > 0
      ? [
          `Discount (${p.coupon?.code}${p.coupon?.duration === 'once' && sub ? ', first payment' : ''}): -${mailMoney(p.discount)}`,
        ]
      : []),
    ...(p.memberPrice
      ? [
          `${plans[p.memberPrice.plan].name} member price${sub ? ' (every payment)' : ''}: -${mailMoney(p.memberPrice.discount)}`,
        ]
      : []),
    // What moved today: a trial charges nothing until it ends.
    `Paid today: ${mailMoney(p.paid)}`,
    ...(trialing && sub.trialEndsAt ? [`Free trial until ${mailDate(sub.trialEndsAt)}.`] : []),
    ...(sub?.nextPayment
      ? [
          `Next payment: ${mailMoney(sub.nextPayment.amount)} on ${mailDate(sub.nextPayment.at)}, then ${mailMoney(sub.renewalAmount)} every ${p.scheme}. Cancel any time before then from your orders page.`,
        ]
      : []),
    '',
    'What you now have:',
    ...p.entitlements.map(
      (e) => `- ${e.productTitle}: ${e.kind.replace('_', ' ')} (${origin}${deliveredAt[e.kind]})`,
    ),
    '',
    `Your order, with the receipt as PDF: ${origin}/orders/${p.id}`,
  ];
  return {
    to,
    subject: trialing
      ? `Your free trial of ${p.item.title} has started (${p.receiptNumber})`
      : `Your Tradeshelf receipt ${p.receiptNumber}`,
    text: lines.join('\n'),
  };
}

/** The end of a notice about a payment refunded in full: what came back (or was cancelled), the reference. */
function refundedInFull(p: Purchase, subscription: string, after: string) {
  return [
    p.refunded.amount > 0
      ? `We refunded that payment in full: ${mailMoney(p.refunded)}. Your bank usually shows it within 5 to 10 days.`
      : `Nothing was charged for it, and we cancelled ${subscription}.`,
    after,
    '',
    `Reference: ${p.receiptNumber ?? p.id}`,
  ];
}

export function duplicateMail(to: string, p: Purchase) {
  const lines = [
    `You already owned ${p.item.title} from ${p.item.vendor.displayName} when a second payment for it arrived`,
    '(two checkouts paid at the same time, for example in two browser tabs).',
    '',
    ...refundedInFull(p, 'the extra subscription', 'Your access is unchanged.'),
  ];
  return { to, subject: `Duplicate payment refunded: ${p.item.title}`, text: lines.join('\n') };
}

/** A superseded checkout paid after its coupon ran out: refunded in full, nothing granted. */
export function couponLimitMail(to: string, p: Purchase) {
  const lines = [
    `A payment for ${p.item.title} from ${p.item.vendor.displayName} arrived for an older checkout with`,
    `the coupon ${p.coupon?.code ?? ''}, after you had started a newer one with it (for example in another`,
    'browser tab), and the coupon had no uses left for it.',
    '',
    ...refundedInFull(p, 'that subscription', 'Nothing was added to your library for it.'),
  ];
  return { to, subject: `Payment refunded: ${p.item.title}`, text: lines.join('\n') };
}

/** The buyer's notice that a vendor ended their access, with the vendor's reason. */
export function revokedMail(to: string, p: Purchase) {
  const vendor = p.item.vendor.displayName;
  const lines = [
    `${vendor} has ended your access to ${p.item.title}.`,
    '',
    `Their reason: ${p.revoked?.reason ?? ''}`,
    '',
    ...(p.subscription ? ['Your subscription is cancelled: you will not be charged again.'] : []),
    'No money was refunded with this. If you think this is a mistake, reply to the vendor from your',
    'orders page or contact Tradeshelf support with this reference.',
    '',
    `Reference: ${p.receiptNumber ?? p.id}`,
  ];
  return { to, subject: `Access ended: ${p.item.title}`, text: lines.join('\n') };
}

/* ---------------------------------------------------------------- buyer reads */
