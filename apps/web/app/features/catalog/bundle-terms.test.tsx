// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import type { BundleDetails, Price, ProductCard } from '@tradeshelf/contract';
import { BundleTerms } from './bundle-terms.tsx';

afterEach(cleanup);

const price = (amount: number, interval: Price['interval'] = null): Price => ({
  priceId: `price_${amount}`,
  amount,
  currency: 'usd',
  scheme: interval ? 'recurring' : 'one_time',
  interval,
  trialDays: null,
});

const product = (id: string, title: string, kind: ProductCard['kind'], p: Price) =>
  ({ id, title, kind, price: p }) as ProductCard;

/** The bundle: a room and an app sold monthly, a course once; $377 of first payments. */
function bundle(amount: number): BundleDetails {
  const room = price(4900, 'month');
  const app = price(12_900, 'month');
  const course = price(19_900);
  return {
    price: price(amount),
    valueAmount: 4900 + 12_900 + 19_900,
    products: [
      product('prd_room', 'Alpha Room', 'community', room),
      product('prd_app', 'Scanner Pro', 'app', app),
      product('prd_course', 'Order Flow Course', 'course', course),
    ],
    items: [
      { productId: 'prd_room', counted: room },
      { productId: 'prd_app', counted: app },
      { productId: 'prd_course', counted: course },
    ],
  } as BundleDetails;
}

describe('bundle terms (issue 27)', () => {
  it('says how long each product lasts, what it costs alone, and no saving when it costs more', () => {
    render(<BundleTerms bundle={bundle(39_900)} />);
    const rows = screen.getAllByTestId('bundle-term');
    expect(rows.map((r) => r.textContent)).toEqual([
      'Alpha RoomDiscord role with no end date, no renewalsOn its own: $49 / month',
      'Scanner ProLicence with no expiry, no renewalsOn its own: $129 / month',
      'Order Flow CourseCourse access with no end date, no renewalsOn its own: $199 one-time',
    ]);
    const value = screen.getByTestId('bundle-value').textContent!;
    expect(value).toBe(
      'Bought separately: $377 (the first payment of each subscription). This bundle: $399, paid once. That is $22 more than buying them separately.',
    );
    expect(value).not.toMatch(/save/i);
  });

  it('shows a saving only when there is one', () => {
    render(<BundleTerms bundle={bundle(29_900)} />);
    expect(
      within(screen.getByTestId('bundle-terms')).getByTestId('bundle-value').textContent,
    ).toMatch(/This bundle: \$299, paid once\. You save \$78\.$/);
  });
});
