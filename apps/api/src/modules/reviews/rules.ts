import type { RateRule } from '../../platform/rate-limit.ts';

/** Reviews and replies a user may save: generous for edits, short of a flood. */
export const reviewRules = {
  write: { name: 'reviews:write', limit: 30, windowSeconds: 60 * 60 },
} as const satisfies Record<string, RateRule>;
