import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { PlatformTerms } from '@tradeshelf/contract';
import { formatMoney } from '../lib/format.ts';

/**
 * The policy pages' shared parts. They live outside lib/ and components/ so that only these pages
 * load them (vite.config.ts puts those folders in the chunk every page loads).
 */

/** "5% + $0.30": the platform fee as configured (the fixed part is in the payment's currency). */
export function formatFee(fee: PlatformTerms['platformFee']): string {
  const percent = fee.bps > 0 ? `${fee.bps / 100}%` : '';
  const fixed = fee.fixed > 0 ? formatMoney(fee.fixed, 'usd') : '';
  return [percent, fixed].filter(Boolean).join(' + ') || 'no fee';
}

/**
 * "14–60 days": how long the open affiliate programmes remember a referral, from their settings
 * (issue 27: pages said 30 days while programmes ran 14 to 60); the allowed range when none is open.
 */
export function referralWindowDays(window: PlatformTerms['referralWindow']): string {
  const open = window.open;
  if (!open) return `1–${window.maxDays} days`;
  return open.minDays === open.maxDays
    ? `${open.minDays} days`
    : `${open.minDays}–${open.maxDays} days`;
}

export function PolicyPage({
  title,
  intro,
  children,
}: {
  title: string;
  intro: ReactNode;
  children: ReactNode;
}) {
  return (
    <article className="mx-auto flex max-w-3xl flex-col gap-8 text-slate-300">
      <header>
        <h1 className="text-3xl font-extrabold text-white sm:text-4xl">{title}</h1>
        <p className="mt-3 text-lg">{intro}</p>
      </header>
      <div className="flex flex-col gap-8 leading-relaxed [&_a]:text-brand-300 [&_a]:underline [&_a]:underline-offset-2 [&_h2]:text-xl [&_h2]:font-bold [&_h2]:text-white [&_li]:mt-1.5 [&_p]:mt-3 [&_strong]:text-slate-100 [&_ul]:mt-3 [&_ul]:list-disc [&_ul]:pl-5">
        {children}
      </div>
      <p className="border-t border-ink-800 pt-6 text-sm">
        Questions about this page?{' '}
        <Link to="/contact" className="text-brand-300 underline underline-offset-2">
          Write to us
        </Link>{' '}
        and we will answer by e-mail.
      </p>
    </article>
  );
}

export function Section({
  id,
  title,
  children,
}: {
  id: string;
  title: string;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}
