import { supportMessages } from '@tradeshelf/contract/client';
import { describe, expect, it } from 'vitest';
import { hydrate } from '../../lib/hydrate.ts';
import { signedInStore } from '../../testing.ts';
import { sendContact } from './api.ts';
import { initialSupportState, resetContact, supportSlice, type SupportState } from './slice.ts';

const reduce = (s: SupportState, ...actions: Array<{ type: string; payload?: unknown }>) =>
  actions.reduce((x, a) => supportSlice.reducer(x, a), s);
const body = {
  name: 'Ada',
  email: 'a@example.com',
  subject: 'Licence key',
  message: 'My licence key is refused.',
};
const received = { message: supportMessages.received };

describe('support group (docs/product.md#request-groups)', () => {
  it('starts idle', () => {
    expect(initialSupportState).toEqual({ contact: { status: 'idle', data: null, error: null } });
  });

  it('contact: loading → success with the answer; reset empties it', () => {
    let s = reduce(initialSupportState, sendContact.pending('r', body));
    expect(s.contact.status).toBe('loading');
    s = reduce(s, sendContact.fulfilled(received, 'r', body));
    expect(s.contact).toEqual({ status: 'success', data: received, error: null });
    expect(reduce(s, resetContact()).contact).toEqual(initialSupportState.contact);
  });

  it('contact: failure keeps the whole error, field messages included (docs/product.md#request-states)', () => {
    const err = {
      error: supportMessages.nameRequired,
      code: 'validation_failed',
      fields: { name: supportMessages.nameRequired },
    };
    const s = reduce(
      initialSupportState,
      sendContact.pending('r', body),
      sendContact.rejected(null, 'r', body, err),
    );
    expect(s.contact).toEqual({ status: 'failure', data: null, error: err });
    // A new attempt clears the old error.
    expect(reduce(s, sendContact.pending('r2', body)).contact).toEqual({
      status: 'loading',
      data: null,
      error: null,
    });
  });

  it('hydrate merges server state', () => {
    const s = reduce(initialSupportState, hydrate({ support: { contact: { status: 'success' } } }));
    expect(s.contact.status).toBe('success');
  });

  it('posts to /api/v1/contact without a bearer token, even signed in (docs/product.md#bearer-tokens)', async () => {
    const seen: Array<{ path: string; method: string; auth: string | null; body: unknown }> = [];
    const { store } = signedInStore((url, init) => {
      seen.push({
        path: url.pathname,
        method: init.method ?? 'GET',
        auth: new Headers(init.headers).get('authorization'),
        body: JSON.parse(String(init.body)),
      });
      return new Response(JSON.stringify(received), { status: 202 });
    });
    await store.dispatch(sendContact(body));
    expect(seen).toEqual([{ path: '/api/v1/contact', method: 'POST', auth: null, body }]);
    expect(store.getState().support.contact).toEqual({
      status: 'success',
      data: received,
      error: null,
    });
  });
});
