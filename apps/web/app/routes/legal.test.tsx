// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { renderWithApp } from '../test/render.tsx';
import Privacy from './privacy.tsx';
import Terms from './terms.tsx';

afterEach(cleanup);

const referralWindow = { maxDays: 365, open: { minDays: 14, maxDays: 60 } };
const terms = {
  platformFee: { bps: 500, fixed: 30 },
  supportEmail: 'support@example.com',
  referralWindow,
};

describe('terms and privacy say the referral window from the data (issue 27)', () => {
  it('terms: the open programmes’ range, not a fixed 30 days', () => {
    renderWithApp(<Terms {...({ loaderData: terms } as Parameters<typeof Terms>[0])} />);
    expect(screen.getByTestId('referral-window').textContent).toBe('14–60 days');
    expect(document.body.textContent).not.toMatch(/30 days/);
  });

  it('privacy: the cookie lasts what the programme says', () => {
    renderWithApp(
      <Privacy
        {...({ loaderData: { supportEmail: terms.supportEmail, referralWindow } } as Parameters<
          typeof Privacy
        >[0])}
      />,
    );
    expect(screen.getByTestId('referral-window').textContent).toBe('14–60 days');
    expect(document.body.textContent).toMatch(/referral_id after you follow an affiliate's link/);
    expect(document.body.textContent).not.toMatch(/30 days/);
  });
});
