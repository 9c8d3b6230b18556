import { useEffect, useState } from 'react';
import type { Community } from '@tradeshelf/contract';
import { useAppDispatch, useAppSelector } from '../../lib/hooks.ts';
import { poll } from '../../lib/poll.ts';
import { fetchCommunities } from './api.ts';

/** While access is on its way the communities are read again this often… */
export const COMMUNITIES_POLL_INTERVAL_MS = 2000;
/** …for at most this long (a failing grant says when it retries; Retry now is on the card). */
export const COMMUNITIES_POLL_TIMEOUT_MS = 60_000;

/**
 * Access is on its way: a job is granting, or the account was just linked and a card still asks
 * for it (the grant is queued when the link answers).
 */
export function awaitingAccess(list: readonly Community[] | null, justLinked: boolean): boolean {
  return (list ?? []).some(
    (c) => c.health.status === 'granting' || (justLinked && c.health.status === 'needs_link'),
  );
}

/**
 * The buyer's communities: read when the page opens, then every 2 s while access is on its way
 * (stops when nothing is, when the page closes, and after a minute), so roles arrive without a
 * reload. `timedOut` when it stopped waiting.
 */
export function useCommunities() {
  const dispatch = useAppDispatch();
  const communities = useAppSelector((s) => s.discord.communities);
  const linkedAt = useAppSelector((s) => s.discord.linkedAt);
  const [openedAt] = useState(() => Date.now());
  const justLinked = linkedAt !== null && openedAt - linkedAt < COMMUNITIES_POLL_TIMEOUT_MS;
  const waiting = awaitingAccess(communities.data, justLinked);
  const [timedOut, setTimedOut] = useState(false);

  useEffect(() => {
    void dispatch(fetchCommunities());
  }, [dispatch]);

  useEffect(() => {
    if (!waiting) return;
    return poll({
      check: async () => {
        const result = await dispatch(fetchCommunities());
        // A failed look (offline a moment) keeps waiting; the card keeps its last answer.
        return fetchCommunities.fulfilled.match(result) &&
          !awaitingAccess(result.payload, justLinked)
          ? 'done'
          : 'pending';
      },
      onTimeout: () => setTimedOut(true),
      interval: COMMUNITIES_POLL_INTERVAL_MS,
      timeout: COMMUNITIES_POLL_TIMEOUT_MS,
      immediate: false,
    });
  }, [dispatch, waiting, justLinked]);

  const reload = () => {
    setTimedOut(false);
    void dispatch(fetchCommunities());
  };
  return { communities, waiting: waiting && !timedOut, timedOut: waiting && timedOut, reload };
}
