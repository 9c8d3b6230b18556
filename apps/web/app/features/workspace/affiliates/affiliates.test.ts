import { affiliateMessages, reviewMessages, REVIEW_REPLY_MAX } from '@tradeshelf/contract/client';
import { describe, expect, it } from 'vitest';
import { replyProblem } from '../reviews/reviews.tsx';
import { formatBps as percent } from '@tradeshelf/contract/client';
import { parseTerms } from './affiliates.tsx';

describe('parseTerms', () => {
  it('reads a percentage into basis points and whole days', () => {
    expect(parseTerms({ commission: '12.5', cookieDays: '30' })).toEqual({
      terms: { commissionBps: 1250, cookieDays: 30 },
      fields: {},
    });
    expect(parseTerms({ commission: '0', cookieDays: '365' }).terms).toEqual({
      commissionBps: 0,
      cookieDays: 365,
    });
  });

  it('refuses what the server refuses, in its words', () => {
    for (const commission of ['91', '-1', '1.234', 'ten', ''])
      expect(parseTerms({ commission, cookieDays: '30' }).fields).toEqual({
        commissionBps: affiliateMessages.commissionRange,
      });
    for (const cookieDays of ['0', '366', '1.5', ''])
      expect(parseTerms({ commission: '20', cookieDays }).fields).toEqual({
        cookieDays: affiliateMessages.cookieDaysRange,
      });
  });

  it('shows basis points as a percentage', () => {
    expect(percent(2000)).toBe('20%');
    expect(percent(1250)).toBe('12.5%');
  });
});

describe('replyProblem', () => {
  it('asks for a reply and keeps it within the limit', () => {
    expect(replyProblem('  ')).toBe(reviewMessages.replyRequired);
    expect(replyProblem('x'.repeat(REVIEW_REPLY_MAX + 1))).toBe(reviewMessages.replyTooLong);
    expect(replyProblem('Thanks!')).toBeNull();
  });
});
