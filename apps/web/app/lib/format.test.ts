import { describe, expect, it } from 'vitest';
import { countLabel, formatDuration, utcDayLabel, utcMonthLabel } from './format.ts';

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

describe('dates on public pages', () => {
  it("write a UTC day and month exactly as Intl's en-US formats do, without Intl", () => {
    const day = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });
    const month = new Intl.DateTimeFormat('en-US', {
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    });
    for (let m = 0; m < 12; m++)
      for (const iso of [
        new Date(Date.UTC(2026, m, 1, 0, 0, 0)).toISOString(),
        new Date(Date.UTC(1999, m, 28, 23, 59, 59)).toISOString(),
      ]) {
        expect(utcDayLabel(iso)).toBe(day.format(new Date(iso)));
        expect(utcMonthLabel(iso)).toBe(month.format(new Date(iso)));
      }
  });
});
