// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { renderWithApp } from '../test/render.tsx';
import VendorLanding from './vendor-login.tsx';

afterEach(cleanup);

type Props = Parameters<typeof VendorLanding>[0];
const landing = (open: { minDays: number; maxDays: number } | null) =>
  ({ loaderData: { fee: '6.5% + $0.45', referralWindow: { maxDays: 365, open } } }) as Props;

describe('/vendor/login referral window (issue 27)', () => {
  it('says the range the open programmes run, from the data', () => {
    renderWithApp(<VendorLanding {...landing({ minDays: 14, maxDays: 60 })} />);
    expect(screen.getByTestId('referral-window').textContent).toBe('14–60 days');
    expect(screen.getByTestId('referral-window-text').textContent).toMatch(
      /from 1 to 365 days; programmes open now remember them for 14–60 days\./,
    );
    expect(document.body.textContent).not.toMatch(/30 days/);
  });

  it('says what a vendor may choose when no programme is open', () => {
    renderWithApp(<VendorLanding {...landing(null)} />);
    expect(screen.getByTestId('referral-window').textContent).toBe('1–365 days');
  });
});
