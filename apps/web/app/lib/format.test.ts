import { describe, expect, it } from 'vitest';
import { countLabel, formatDuration } from './format.ts';

// Issue 27: "1 files" and a 6-second clip labelled "1 min".
describe('counts and lengths', () => {
  it('says one thing in the singular and the rest in the plural', () => {
    expect(countLabel(1, 'file')).toBe('1 file');
    expect(countLabel(0, 'file')).toBe('0 files');
    expect(countLabel(3, 'lesson')).toBe('3 lessons');
    expect(countLabel(1200, 'product')).toBe('1,200 products');
    expect(countLabel(2, 'match', 'matches')).toBe('2 matches');
  });

  it('shows a media length as a player does, never rounded up to a minute', () => {
    expect(formatDuration(6)).toBe('0:06');
    expect(formatDuration(59)).toBe('0:59');
    expect(formatDuration(750)).toBe('12:30');
    expect(formatDuration(3723)).toBe('1:02:03');
  });
});
