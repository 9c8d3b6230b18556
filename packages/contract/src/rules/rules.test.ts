import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { statusFor } from '../errors.ts';
import { couponCodeSchema, refIdSchema } from '../orders.ts';
import { buildPath } from '../route.ts';
import { COUPON_CODE_MAX, couponMessages, validateCouponCode } from './coupon.ts';
import { passwordMessages, validateNewPassword } from './password.ts';
import { REF_ID_MAX, refIdMessages, validateRefId } from './ref-id.ts';
import { foldName, isReservedName } from './reserved-names.ts';
import { usernameMessages, validateUsername } from './username.ts';

// Issue 26 (ADR 052): names that pass for the platform, however they are written.
describe('reserved names', () => {
  it.each([
    'Tradeshelf',
    'tradeshelf',
    'Trade Shelf',
    'TRADE-SHELF deals',
    'tradeshe1f_fan',
    'Tr4desh3lf',
    'Trădeshelf',
    'Ｔｒａｄｅｓｈｅｌｆ',
    'Support',
    'support team',
    'Support_Team',
    'The Team',
    'Admin',
    'ADM1N',
    'adrnin',
    'Official Staff',
    'S.U.P.P.O.R.T',
    'Secur1ty',
    'Ѕupport',
    'Suppоrt',
    'Help Desk',
  ])('%j is reserved', (name) => {
    expect(isReservedName(name)).toBe(true);
  });

  it.each([
    'Alpha Team Trading',
    'Security Scanner Pro',
    'Support Level Lab',
    'Options Owl',
    'Trader_One',
    'admin_fan_42',
    'Staffordshire FX',
    '',
    '1234',
  ])('%j is not', (name) => {
    expect(isReservedName(name)).toBe(false);
  });

  it('folds lookalikes, accents, case and punctuation to one spelling', () => {
    expect(foldName('Tr4de-She1f.')).toBe(foldName('tradeshelf'));
    expect(foldName('S0 Mаny!')).toBe('somanyi'); // Cyrillic а; ! reads as i
  });

  it('usernames: reserved names get their own message, after the §5 checks', () => {
    expect(validateUsername('Support')).toBe(usernameMessages.reserved);
    expect(validateUsername('tradeshelf_hq')).toBe(usernameMessages.reserved);
    expect(validateUsername('mod')).toBe(usernameMessages.length);
    expect(validateUsername('adm__in')).toBe(usernameMessages.consecutiveUnderscores);
    expect(validateUsername('staff-1')).toBe(usernameMessages.invalid);
    expect(usernameMessages.reserved).not.toMatch(/^Username must|^Invalid username/);
  });
});

describe('username rule (docs/product.md#username)', () => {
  it.each([
    ['abc', usernameMessages.length],
    ['', usernameMessages.length],
    ['abcdefghijklmnop', usernameMessages.length],
    ['ab__cd', usernameMessages.consecutiveUnderscores],
    ['a___b', usernameMessages.consecutiveUnderscores],
    ['bad-name', usernameMessages.invalid],
    ['spa ce1', usernameMessages.invalid],
    ['ümlaut1', usernameMessages.invalid],
  ])('%j → %s', (input, message) => {
    expect(validateUsername(input)).toBe(message);
  });

  it.each(['abcd', 'Trader_One', 'a_b_c_d', '_lead', 'x'.repeat(15), '1234'])(
    'accepts %j',
    (input) => {
      expect(validateUsername(input)).toBeNull();
    },
  );

  it('accepts exactly the 4–15 letters, digits and single underscores', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), (s) => {
        const valid = /^[A-Za-z0-9_]{4,15}$/.test(s) && !s.includes('__');
        expect(validateUsername(s) === null).toBe(valid);
      }),
    );
  });
});

describe('password rule', () => {
  it('bounds length and refuses common passwords case-insensitively', () => {
    expect(validateNewPassword('short')).toBe(passwordMessages.tooShort);
    expect(validateNewPassword('x'.repeat(129))).toBe(passwordMessages.tooLong);
    expect(validateNewPassword('PassWord123')).toBe(passwordMessages.common);
    expect(validateNewPassword('correct-horse-42')).toBeNull();
  });
});

describe('coupon code rule', () => {
  it.each([
    ['', couponMessages.empty],
    ['x'.repeat(COUPON_CODE_MAX + 1), couponMessages.tooLong],
    ['bad code!', couponMessages.characters],
    ['SAVE10', null],
    ['spring_sale-2026', null],
    ['x'.repeat(COUPON_CODE_MAX), null],
  ])('%j → %s', (input, message) => {
    expect(validateCouponCode(input)).toBe(message);
  });

  it('is the rule the schema enforces: same verdict and message on the trimmed code', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ maxLength: 40 }), fc.stringMatching(/^\s?[\w-]{0,34}\s?$/)),
        (s) => {
          const problem = validateCouponCode(s.trim());
          const parsed = couponCodeSchema.safeParse(s);
          expect(parsed.success).toBe(problem === null);
          if (parsed.success) expect(parsed.data).toBe(s.trim());
          else expect(parsed.error.issues[0]?.message).toBe(problem);
        },
      ),
    );
  });
});

describe('referral id rule', () => {
  it.each([
    ['', null],
    ['aff_123-x', null],
    ['x'.repeat(REF_ID_MAX + 1), refIdMessages.tooLong],
    ['a b', refIdMessages.characters],
    ['<script>', refIdMessages.characters],
  ])('%j → %s', (input, message) => {
    expect(validateRefId(input)).toBe(message);
  });

  it('is the rule the schema enforces', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ maxLength: 70 }), fc.stringMatching(/^\s?[\w-]{0,66}\s?$/)),
        (s) => {
          const problem = validateRefId(s.trim());
          const parsed = refIdSchema.safeParse(s);
          expect(parsed.success).toBe(problem === null);
          if (!parsed.success) expect(parsed.error.issues[0]?.message).toBe(problem);
        },
      ),
    );
  });
});

describe('contract helpers', () => {
  it('maps error codes to statuses', () => {
    expect(statusFor('validation_failed')).toBe(400);
    expect(statusFor('token_reused')).toBe(401);
    expect(statusFor('username_taken')).toBe(409);
    expect(statusFor('rate_limited')).toBe(429);
  });
  it('fills and encodes path parameters', () => {
    expect(buildPath('/api/v1/courses/{id}', { id: 'a/b' })).toBe('/api/v1/courses/a%2Fb');
    expect(() => buildPath('/api/v1/courses/{id}')).toThrow('Missing path parameter id');
  });
});
