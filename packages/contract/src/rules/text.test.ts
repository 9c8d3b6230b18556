import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contactRequest, supportMessages } from '../support.ts';
import { hasUnreadableCharacters } from './text.ts';

describe('readable text rule', () => {
  it.each([
    ['NUL', 'a\u0000b'],
    ['bell', 'a\u0007b'],
    ['DEL', 'a\u007fb'],
    ['C1 control', 'a\u0085b'],
    ['replacement character (undecodable bytes)', 'caf\ufffd'],
    ['lone high surrogate', 'a\ud800b'],
    ['lone low surrogate', 'a\udc00b'],
    ['high surrogate at the end', 'a\ud83d'],
  ])('refuses %s', (_what, value) => {
    expect(hasUnreadableCharacters(value)).toBe(true);
    expect(hasUnreadableCharacters(value, true)).toBe(true);
  });

  it('allows line breaks and tabs only in multi-line text', () => {
    expect(hasUnreadableCharacters('one\r\ntwo\tthree', true)).toBe(false);
    expect(hasUnreadableCharacters('one\ntwo')).toBe(true);
  });

  it('accepts any well-formed text without control characters', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (s) => {
        const clean = [...s].filter((ch) => {
          const c = ch.codePointAt(0)!;
          return !(c < 0x20 || (c >= 0x7f && c <= 0x9f) || c === 0xfffd);
        });
        expect(hasUnreadableCharacters(clean.join(''))).toBe(false);
      }),
    );
    expect(hasUnreadableCharacters('Déjà vu 📈 — ок')).toBe(false);
  });
});

describe('contact request', () => {
  const valid = {
    name: 'Ada',
    email: 'Ada@Example.com ',
    subject: 'Licence key',
    message: 'My key does not activate.',
  };

  it('trims, lowercases the e-mail and keeps optional references', () => {
    expect(
      contactRequest.parse({ ...valid, name: '  Ada ', order: ' TS-2026-001000 ', vendorUrl: '' }),
    ).toEqual({
      ...valid,
      name: 'Ada',
      email: 'ada@example.com',
      order: 'TS-2026-001000',
      vendorUrl: '',
    });
  });

  it('names each problem in its own field', () => {
    const result = contactRequest.safeParse({
      name: '   ',
      subject: 'a\u0000b',
      message: 'short',
      order: 'no spaces allowed',
      vendorUrl: '/v/alpha',
    });
    expect(result.success).toBe(false);
    const fields = Object.fromEntries(result.error!.issues.map((i) => [i.path[0], i.message]));
    expect(fields).toEqual({
      name: supportMessages.nameRequired,
      email: supportMessages.emailRequired,
      subject: supportMessages.unreadable,
      message: supportMessages.messageTooShort,
      order: supportMessages.orderFormat,
      vendorUrl: supportMessages.vendorFormat,
    });
  });
});
