import {
  AFFILIATE_COOKIE_DAYS_MAX,
  supportMessages as m,
  supportRoutes,
} from '@tradeshelf/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createVendor } from '../../../test/factories/catalog.ts';
import { createUser } from '../../../test/factories/users.ts';
import { nextIp, startTestApp, type TestApp } from '../../../test/harness.ts';
import type { ReceivedMail } from '../../../test/smtp.ts';
import { contactRules } from './service.ts';

let t: TestApp;
const SUPPORT = 'help@support.test';

beforeAll(async () => {
  t = await startTestApp({
    SUPPORT_EMAIL: SUPPORT,
    PLATFORM_FEE_BPS: '650',
    PLATFORM_FEE_FIXED: '45',
  });
});
afterAll(() => t.close());
beforeEach(() => {
  t.smtp.inbox.length = 0;
});

let seq = 0;
const sender = () => `sender${++seq}-${Math.random().toString(36).slice(2, 7)}@example.com`;
const message = (over: Record<string, unknown> = {}) => ({
  name: 'Ada Trader',
  email: sender(),
  subject: 'Licence key does not activate',
  message: 'I bought the scanner yesterday and the key is refused.',
  ...over,
});
const send = (body: unknown, ip = nextIp()) => t.call(supportRoutes.contact, { body, ip });
const rawSend = (payload: Buffer | string) =>
  t.app.inject({
    method: 'POST',
    url: supportRoutes.contact.path,
    payload,
    headers: { 'content-type': 'application/json' },
    remoteAddress: nextIp(),
  });

/** A header of a received mail, long ones unfolded. */
const header = (mail: ReceivedMail, name: string) => {
  const head = mail.raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
  return new RegExp(`^${name}: (.*)$`, 'mi').exec(head)?.[1]?.trim() ?? null;
};
/** A received mail's text, quoted-printable decoded. */
const bodyOf = (mail: ReceivedMail) => {
  const body = mail.raw
    .split(/\r?\n\r?\n/)
    .slice(1)
    .join('\n\n');
  if (!/quoted-printable/i.test(header(mail, 'Content-Transfer-Encoding') ?? '')) return body;
  const bytes = body
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
};
const mailTo = (to: string) => t.smtp.inbox.filter((mail) => mail.to.includes(to));
const stored = async (email: string) =>
  (
    await t.database.db.execute<Record<string, unknown>>(
      sql`select * from support_messages where email = ${email}`,
    )
  ).rows;

describe('POST /api/v1/contact', () => {
  it('stores the message, mails support with the sender as reply-to, and confirms to the sender', async () => {
    const body = message({ order: 'TS-2026-001234' });
    const res = await send(body);
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ message: m.received });

    const [row] = await stored(body.email);
    expect(row).toMatchObject({
      name: 'Ada Trader',
      subject: body.subject,
      message: body.message,
      order_ref: 'TS-2026-001234',
      vendor_id: null,
      user_id: null,
    });

    const [toSupport] = mailTo(SUPPORT);
    expect(toSupport).toBeDefined();
    expect(header(toSupport!, 'Subject')).toBe(`Contact form: ${body.subject}`);
    expect(header(toSupport!, 'Reply-To')).toBe(body.email);
    expect(bodyOf(toSupport!)).toContain(body.message);
    expect(bodyOf(toSupport!)).toContain('Order: TS-2026-001234');
    expect(bodyOf(toSupport!)).toContain(`Reference: ${row!.id as string}`);

    const [confirmation] = mailTo(body.email);
    expect(header(confirmation!, 'Subject')).toBe(
      `We received your message (${row!.id as string})`,
    );
    expect(header(confirmation!, 'Reply-To')).toBe(SUPPORT);
    // Nothing the sender typed is repeated to the address they gave.
    expect(bodyOf(confirmation!)).not.toContain(body.subject);
    expect(bodyOf(confirmation!)).not.toContain('Ada');
    expect(t.smtp.inbox).toHaveLength(2);
  });

  it('sends the named vendor a copy that replies to the sender', async () => {
    const owner = await createUser(t, { roles: ['buyer', 'vendor'] });
    const vendor = await createVendor(t, {
      vendorUrl: 'scanner-shop',
      displayName: 'Scanner Shop',
      userId: owner.id,
    });
    const body = message({ vendorUrl: 'Scanner-Shop' });
    expect((await send(body)).statusCode).toBe(202);

    const [toVendor] = mailTo(owner.email);
    expect(header(toVendor!, 'Subject')).toBe(
      `A customer wrote to you on Tradeshelf: ${body.subject}`,
    );
    expect(header(toVendor!, 'Reply-To')).toBe(body.email);
    expect(bodyOf(toVendor!)).toContain(body.message);
    expect(bodyOf(mailTo(SUPPORT)[0]!)).toContain('Vendor: Scanner Shop (/v/scanner-shop)');
    expect(bodyOf(mailTo(body.email)[0]!)).toContain('A copy went to Scanner Shop');
    expect((await stored(body.email))[0]).toMatchObject({ vendor_id: vendor.id });
  });

  it('refuses a vendor that does not exist, in the field, storing and sending nothing', async () => {
    const body = message({ vendorUrl: 'nobody-here' });
    const res = await send(body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: m.vendorUnknown,
      code: 'validation_failed',
      fields: { vendorUrl: m.vendorUnknown },
    });
    expect(await stored(body.email)).toHaveLength(0);
    expect(t.smtp.inbox).toHaveLength(0);
  });

  it('answers alike whether or not the e-mail has an account; only support learns which', async () => {
    const member = await createUser(t);
    const known = await send(message({ email: member.email }));
    const unknown = await send(message());
    expect(known.statusCode).toBe(unknown.statusCode);
    expect(known.json()).toEqual(unknown.json());
    expect(Object.keys(known.headers).sort()).toEqual(Object.keys(unknown.headers).sort());
    const supportMails = mailTo(SUPPORT);
    expect(bodyOf(supportMails[0]!)).toContain(`Account: ${member.id}`);
    expect(bodyOf(supportMails[1]!)).toContain('Account: none with this e-mail');
    expect((await stored(member.email))[0]).toMatchObject({ user_id: member.id });
  });

  it('names every problem in its field', async () => {
    const res = await send({ name: '', email: 'not-an-email', subject: ' ', message: 'short' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'validation_failed',
      fields: {
        name: m.nameRequired,
        email: 'Enter a valid e-mail address.',
        subject: m.subjectRequired,
        message: m.messageTooShort,
      },
    });
    const missing = await send({});
    expect(missing.json().fields).toEqual({
      name: m.nameRequired,
      email: m.emailRequired,
      subject: m.subjectRequired,
      message: m.messageTooShort,
    });
    const long = await send(
      message({ subject: 'x'.repeat(151), message: 'y'.repeat(5001), order: 'TS 2026' }),
    );
    expect(long.json().fields).toEqual({
      subject: m.subjectTooLong,
      message: m.messageTooLong,
      order: m.orderFormat,
    });
    expect(t.smtp.inbox).toHaveLength(0);
  });

  it('refuses NUL, control characters, line breaks in one-line fields and bytes that are not UTF-8', async () => {
    for (const [field, value] of [
      ['name', 'Ada\u0000'],
      ['subject', 'Hello\r\nBcc: victim@example.com'],
      ['message', 'Broken \ud800 surrogate text'],
      ['email', 'ada\u0000@example.com'],
    ] as const) {
      const res = await send(message({ [field]: value }));
      expect(res.statusCode, field).toBe(400);
      // NUL is refused at the edge for every route (ADR 020), with that rule's own message.
      expect(Object.keys(res.json().fields), field).toEqual([field]);
      if (!value.includes('\u0000')) expect(res.json().fields[field], field).toBe(m.unreadable);
    }
    // Raw bytes that are not UTF-8 decode to U+FFFD and are refused like any unreadable text.
    const [before, after] = JSON.stringify(message({ name: 'Ada @@' })).split('@@');
    const invalidUtf8 = await rawSend(
      Buffer.concat([Buffer.from(before!), Buffer.from([0xff, 0xfe]), Buffer.from(after!)]),
    );
    expect(invalidUtf8.statusCode).toBe(400);
    expect(invalidUtf8.json().fields).toEqual({ name: m.unreadable });
    // A raw NUL byte inside a JSON string is not JSON at all.
    const rawNul = await rawSend(
      Buffer.from(JSON.stringify(message()).replace('Ada Trader', 'Ada\u0000Trader')),
    );
    expect(rawNul.statusCode).toBe(400);
    expect(rawNul.json().code).toBe('bad_request');
    expect(t.smtp.inbox).toHaveLength(0);
  });

  it('limits each client address, with Retry-After', async () => {
    const ip = nextIp();
    const statuses: number[] = [];
    for (let i = 0; i <= contactRules.ip.limit; i++)
      statuses.push((await send(message(), ip)).statusCode);
    expect(statuses.slice(0, -1).every((s) => s === 202)).toBe(true);
    const last = await send(message(), ip);
    expect(last.statusCode).toBe(429);
    expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
    expect(last.json().code).toBe('rate_limited');
    // Another address is not held up.
    expect((await send(message())).statusCode).toBe(202);
  });

  it('limits an IPv6 client per /64, since one subscriber holds the whole prefix', async () => {
    const [, , a, b] = nextIp().split('.');
    const prefix = `2001:db8:${a}:${b}`;
    const statuses: number[] = [];
    // Every message from a different address of the same /64, written in different ways.
    for (let i = 0; i < contactRules.ip.limit; i++)
      statuses.push((await send(message(), `${prefix}::${(i + 1).toString(16)}`)).statusCode);
    expect(statuses.every((s) => s === 202)).toBe(true);
    const over = await send(message(), `${prefix}:0:0:0:ffff`.replace(':0:0:0:', ':0000:0:0:'));
    expect(over.statusCode).toBe(429);
    expect(over.json().code).toBe('rate_limited');
    // The next /64 is someone else.
    expect((await send(message(), `2001:db8:${a}:${Number(b) + 1000}::1`)).statusCode).toBe(202);
  });

  it('limits each e-mail address across client addresses, with Retry-After', async () => {
    const email = sender();
    for (let i = 0; i < contactRules.email.limit; i++)
      expect((await send(message({ email: email.toUpperCase() }))).statusCode).toBe(202);
    const over = await send(message({ email }));
    expect(over.statusCode).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(await stored(email)).toHaveLength(contactRules.email.limit);
  });

  it('answers a filled spam trap as usual, and stores and sends nothing', async () => {
    const body = message({ website: 'http://spam.example' });
    const res = await send(body);
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ message: m.received });
    expect(await stored(body.email)).toHaveLength(0);
    expect(t.smtp.inbox).toHaveLength(0);
  });
});

describe('GET /api/v1/platform/terms', () => {
  it('reads the fee and support address from the configuration', async () => {
    const res = await t.call(supportRoutes.platformTerms);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      platformFee: { bps: 650, fixed: 45 },
      supportEmail: SUPPORT,
    });
  });

  it('reads the referral window from the open programmes, not from copy (issue 27)', async () => {
    const { rows } = await t.database.db.execute<{ min: number | null; max: number | null }>(
      sql`select min(cookie_days)::int as min, max(cookie_days)::int as max
        from affiliate_programmes where open`,
    );
    const res = await t.call(supportRoutes.platformTerms);
    expect(res.json().referralWindow).toEqual({
      maxDays: AFFILIATE_COOKIE_DAYS_MAX,
      open: rows[0]!.min === null ? null : { minDays: rows[0]!.min, maxDays: rows[0]!.max },
    });
  });
});

describe('the policy pages', () => {
  it('are listed in the sitemap with the contact page', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/sitemaps/pages.xml' });
    expect(res.statusCode).toBe(200);
    for (const path of ['/contact', '/terms', '/privacy', '/refund-policy', '/risk-disclosure'])
      expect(res.body).toContain(`${path}</loc>`);
  });
});
