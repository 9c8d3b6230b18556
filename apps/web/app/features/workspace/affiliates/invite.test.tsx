// @vitest-environment jsdom
import { affiliateMessages } from '@tradeshelf/contract/client';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithApp, type Answer, type SeenRequest } from '../../../test/render.tsx';
import { VendorAffiliates } from './affiliates.tsx';

afterEach(cleanup);

const invitation = (email: string) => ({
  id: 'inv_1',
  refId: 'alpha-edge-x1',
  vendorId: 'ven_1',
  vendorUrl: 'alpha-edge',
  vendorName: 'Alpha Edge',
  email,
  commissionBps: 2000,
  cookieDays: 30,
  status: 'pending',
  createdAt: '2026-11-24T10:00:00.000Z',
  expiresAt: '2026-12-24T10:00:00.000Z',
});

/** The vendor affiliate API; the invite answers `emailed` in turn from `emailed`. */
function api(emailed: boolean[]) {
  return (req: SeenRequest): Answer => {
    if (req.path === '/api/v1/vendor/affiliate/programme')
      return { status: 200, body: { programme: null } };
    if (req.path === '/api/v1/vendor/affiliate/invites' && req.method === 'GET')
      return { status: 200, body: { invitations: [] } };
    if (req.path === '/api/v1/vendor/affiliate/invites' && req.method === 'POST') {
      const { email } = req.body as { email: string };
      return { status: 201, body: { invitation: invitation(email), emailed: emailed.shift() } };
    }
    if (req.path === '/api/v1/vendor/affiliate/affiliates')
      return { status: 200, body: { affiliates: [], nextCursor: null } };
    return { status: 404, body: { error: 'Not found.', code: 'not_found' } };
  };
}

describe('inviting an affiliate', () => {
  it('says the invitation was sent, then that a renewal inside 10 minutes sent no e-mail', async () => {
    const ui = userEvent.setup();
    renderWithApp(<VendorAffiliates />, { signedIn: true, answer: api([true, false]) });
    const field = await screen.findByLabelText('Invite an affiliate by e-mail');
    await ui.type(field, 'pat@example.com');
    await ui.click(screen.getByRole('button', { name: 'Send invitation' }));
    expect(
      await screen.findByText(
        `${affiliateMessages.invited} pat@example.com has 30 days to accept.`,
      ),
    ).toBeTruthy();
    await ui.type(screen.getByLabelText('Invite an affiliate by e-mail'), 'pat@example.com');
    await ui.click(screen.getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByText(affiliateMessages.inviteRenewed)).toBeTruthy();
  });
});
