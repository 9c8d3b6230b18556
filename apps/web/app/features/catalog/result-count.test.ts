import { describe, expect, it } from 'vitest';
import { resultCountLabel } from './result-count.ts';

describe('resultCountLabel', () => {
  it('counts a whole first page exactly, and says "at least" when another page follows', () => {
    expect(resultCountLabel({ shown: 0, more: false, laterPage: false })).toBe('No results');
    expect(resultCountLabel({ shown: 1, more: false, laterPage: false })).toBe('1 result');
    expect(resultCountLabel({ shown: 7, more: false, laterPage: false })).toBe('7 results');
    expect(resultCountLabel({ shown: 26, more: true, laterPage: false })).toBe('26+ results');
  });

  it('says what a later page adds', () => {
    expect(resultCountLabel({ shown: 24, more: true, laterPage: true })).toBe('24+ more results');
    expect(resultCountLabel({ shown: 1, more: false, laterPage: true })).toBe('1 more result');
  });
});
