import { afterEach, vi } from 'vitest';
import { cleanup } from '@testing-library/react';
import type { Community, DiscordLink } from '@tradeshelf/contract';
import { leaveFor } from './navigation.ts';

/**
 * What the page tests undo after each test: the render, the calls of `leaveFor` (which they mock:
 * `vi.mock('./navigation.ts', …)` stays in each file, where vitest hoists it) and fake timers.
 */
export function cleanUpAfterEach() {
  afterEach(() => {
    cleanup();
    vi.mocked(leaveFor).mockClear();
    vi.useRealTimers();
  });
}

/** A community as the API presents it, for reducer and page tests. */
export function community(o: Partial<Community> = {}): Community {
  return {
    _id: 'ent_1',
    purchaseId: 'pur_1',
    vendor: { vendorUrl: 'alpha-edge', displayName: 'Alpha Edge Labs' },
    product: { id: 'prd_1', slug: 'alpha-traders-room', title: 'Alpha Traders Room' },
    server: { id: '1000000000000000001', name: 'Alpha Edge Labs Community', iconUrl: null },
    roles: [{ id: '1000000000000000002', name: 'Alpha Traders Room' }],
    health: {
      status: 'needs_link',
      message: 'Connect Discord to get access.',
      nextRetryAt: null,
      endedReason: null,
    },
    invite: null,
    lastCheckedAt: '2026-11-22T12:00:00.000Z',
    history: [],
    ...o,
  };
}

export const health = (
  status: Community['health']['status'],
  o: Partial<Community['health']> = {},
): Community['health'] => ({
  status,
  message: {
    active: 'You have access.',
    granting: 'Giving you access…',
    needs_link: 'Connect Discord to get access.',
    needs_join: 'Join the server to get your roles.',
    failing: 'Discord is not answering. We will retry; try again in a minute.',
    ended: 'Ended: the purchase was refunded.',
  }[status],
  nextRetryAt: null,
  endedReason: status === 'ended' ? 'refunded' : null,
  ...o,
});

export function link(o: Partial<DiscordLink> = {}): DiscordLink {
  return {
    id: '2000000000000000001',
    username: 'rae_trades',
    globalName: null,
    avatarUrl: null,
    linkedAt: '2026-11-22T12:00:00.000Z',
    canJoinServers: true,
    ...o,
  };
}
