// "What you get" on a product page (issue 29): made from what the product delivers, never from
// copy a vendor typed, so the page promises nothing the purchase does not hand over.
import type { DeliverySummary } from '@tradeshelf/contract';
import { formatDate } from '../../lib/format.ts';

/** The lines, in the order buyers read them; empty when the product delivers nothing listed. */
export function whatYouGet(d: DeliverySummary): string[] {
  const lines = d.files.map(
    (f) => `Files for ${f.label}: v${f.version}, released ${formatDate(f.releasedAt)}`,
  );
  if (d.guide) lines.push('A set-up guide');
  if (d.licence) lines.push('A licence key for the app');
  if (d.tradingViewScript) lines.push('Access to the invite-only TradingView script');
  if (d.discordRoles) lines.push("Roles in the vendor's Discord server");
  if (d.alerts) lines.push(d.alerts);
  if (d.course) lines.push('The course, to watch at your own pace');
  // The updates promise only means something when there are versions to update.
  if (lines.length && d.files.length) lines.push(d.updates.label);
  return lines;
}

export function WhatYouGet({ delivers }: { delivers: DeliverySummary }) {
  const lines = whatYouGet(delivers);
  if (!lines.length) return null;
  return (
    <section aria-labelledby="what-you-get" className="mt-4" data-testid="what-you-get">
      <h2 id="what-you-get" className="text-sm font-semibold text-white">
        What you get
      </h2>
      <ul className="mt-1.5 flex list-disc flex-col gap-1 pl-5 text-sm text-slate-300">
        {lines.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    </section>
  );
}
