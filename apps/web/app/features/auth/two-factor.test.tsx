// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithApp, type SeenRequest } from '../../test/render.tsx';
import { TwoFactorSection } from './two-factor.tsx';

afterEach(cleanup);

const CODES_PATH = '/api/v1/two-factor/recovery-codes';

describe('new recovery codes', () => {
  it('asks for a current code first; a refused code keeps the step open; a good one shows the new codes', async () => {
    const ui = userEvent.setup();
    const sent: SeenRequest[] = [];
    renderWithApp(<TwoFactorSection />, {
      signedIn: true,
      answer: (req) => {
        if (req.path === '/api/v1/two-factor')
          return { status: 200, body: { enabled: true, recoveryCodesLeft: 3 } };
        if (req.path === CODES_PATH) {
          sent.push(req);
          return (req.body as { code: string }).code === '123456'
            ? { status: 200, body: { message: 'New codes.', recoveryCodes: ['aaaa-bbbb'] } }
            : {
                status: 422,
                body: { error: 'Wrong code.', code: 'validation', fields: { code: 'Wrong code.' } },
              };
        }
        return { status: 404, body: { error: 'Not found.', code: 'not_found' } };
      },
    });
    await ui.click(await screen.findByRole('button', { name: 'Get new recovery codes' }));
    expect(screen.getByText('Replace your recovery codes?')).toBeTruthy();
    expect(sent).toEqual([]);

    await ui.type(screen.getByLabelText('Current code'), '000000');
    await ui.click(screen.getByRole('button', { name: 'Get new codes' }));
    expect(await screen.findByText('Wrong code.')).toBeTruthy();
    expect(screen.getByText('Replace your recovery codes?')).toBeTruthy();

    // Cancel takes the step and its error away.
    await ui.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByText('Wrong code.')).toBeNull();

    await ui.click(screen.getByRole('button', { name: 'Get new recovery codes' }));
    await ui.clear(screen.getByLabelText('Current code'));
    await ui.type(screen.getByLabelText('Current code'), '123456');
    await ui.click(screen.getByRole('button', { name: 'Get new codes' }));
    await waitFor(() => expect(screen.getByTestId('recovery-codes').textContent).toBe('aaaa-bbbb'));
    expect(sent.map((r) => r.body)).toEqual([{ code: '000000' }, { code: '123456' }]);
  });
});
