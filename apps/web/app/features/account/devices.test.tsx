// @vitest-environment jsdom
import { afterEach, expect, it } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import type { AccountSession } from '@tradeshelf/contract';
import { renderWithApp } from '../../test/render.tsx';
import { DevicesSection } from './components.tsx';

afterEach(cleanup);

const session = (over: Partial<AccountSession>): AccountSession => ({
  id: 'fam_1',
  device: 'Chrome on Windows',
  address: '203.0.113.x',
  place: null,
  createdAt: '2026-11-20T10:00:00.000Z',
  lastSeenAt: '2026-11-28T10:00:00.000Z',
  current: true,
  ...over,
});

const show = (sessions: AccountSession[]) =>
  renderWithApp(<DevicesSection />, {
    signedIn: true,
    answer: (req) =>
      req.path === '/api/v1/account/sessions'
        ? { status: 200, body: { sessions } }
        : { status: 404, body: { error: 'Not found' } },
  });

it('names where each sign-in was, and credits the IP database it comes from (issue 33)', async () => {
  show([
    session({ id: 'fam_1', place: 'Germany', address: '193.99.144.x' }),
    session({ id: 'fam_2', device: 'Safari on iPhone', place: null, current: false }),
  ]);
  const rows = await screen.findAllByTestId('device-row');
  expect(rows[0]!.textContent).toContain('Germany · 193.99.144.x · signed in');
  // No place known: the address alone, and nothing in its stead.
  expect(rows[1]!.textContent).toContain('Safari on iPhone203.0.113.x · signed in');
  within(rows[1]!).getByRole('button', { name: 'Log out Safari on iPhone, 203.0.113.x' });
  expect(screen.getByRole('link', { name: 'IP Geolocation by DB-IP' }).getAttribute('href')).toBe(
    'https://db-ip.com',
  );
});

it('shows no credit when no place is known', async () => {
  show([session({})]);
  await screen.findAllByTestId('device-row');
  expect(screen.queryByRole('link', { name: /DB-IP/ })).toBeNull();
});
