import type { SavedSearch } from '@tradeshelf/contract';
import { describe, expect, it } from 'vitest';
import { sessionEnded } from '../auth/slice.ts';
import { deleteSavedSearch, fetchSavedSearches, updateSavedSearch } from './api.ts';
import { initialMembershipState, membershipSlice, type MembershipState } from './slice.ts';

const reduce = (s: MembershipState, ...actions: Array<{ type: string; payload?: unknown }>) =>
  actions.reduce((x, a) => membershipSlice.reducer(x, a), s);
const search = (id: string, over: Partial<SavedSearch> = {}): SavedSearch => ({
  id,
  name: `search ${id}`,
  q: id,
  category: null,
  kind: null,
  platform: null,
  minPrice: null,
  maxPrice: null,
  alerts: true,
  createdAt: '2026-11-23T12:00:00.000Z',
  ...over,
});
const page = (ids: string[], nextCursor: string | null) => ({
  savedSearches: ids.map((id) => search(id)),
  nextCursor,
  count: 3,
  limit: 10,
});

describe('membership group', () => {
  it('saved searches: the first page replaces, "show more" appends the next', () => {
    let s = reduce(
      initialMembershipState,
      fetchSavedSearches.fulfilled(page(['a', 'b'], 'c1'), 'r1', undefined),
    );
    s = reduce(s, fetchSavedSearches.fulfilled(page(['c'], null), 'r2', { cursor: 'c1' }));
    expect(s.savedSearches.data?.savedSearches.map((x) => x.id)).toEqual(['a', 'b', 'c']);
    expect(s.savedSearches.data?.nextCursor).toBeNull();
    s = reduce(s, fetchSavedSearches.fulfilled(page(['a'], 'c9'), 'r3', undefined));
    expect(s.savedSearches.data?.savedSearches.map((x) => x.id)).toEqual(['a']);
  });

  it('rename and alerts update the row in place; delete removes it and lowers the count', () => {
    let s = reduce(
      initialMembershipState,
      fetchSavedSearches.fulfilled(page(['a', 'b', 'c'], null), 'r1', undefined),
    );
    const arg = { id: 'b', body: { name: 'Renamed' } };
    s = reduce(s, updateSavedSearch.pending('u', arg));
    expect(s.edit).toMatchObject({ status: 'loading', data: 'b' });
    s = reduce(s, updateSavedSearch.fulfilled(search('b', { name: 'Renamed' }), 'u', arg));
    expect(s.savedSearches.data?.savedSearches[1]!.name).toBe('Renamed');
    s = reduce(s, deleteSavedSearch.fulfilled('a', 'd', 'a'));
    expect(s.savedSearches.data?.savedSearches.map((x) => x.id)).toEqual(['b', 'c']);
    expect(s.savedSearches.data?.count).toBe(2);
    const failed = reduce(
      s,
      deleteSavedSearch.rejected(null, 'd2', 'c', { error: 'gone', code: 'not_found' }),
    );
    expect(failed.edit).toMatchObject({ status: 'failure', error: { code: 'not_found' } });
    expect(failed.savedSearches.data?.savedSearches).toHaveLength(2);
  });

  it('forgets everything when the session ends', () => {
    const s = reduce(
      initialMembershipState,
      fetchSavedSearches.fulfilled(page(['a'], null), 'r', undefined),
      sessionEnded(),
    );
    expect(s).toEqual(initialMembershipState);
  });
});
