import { useId, type ReactNode } from 'react';
import { TitledSection } from './titled-section.tsx';
import { Spinner } from './ui.tsx';

// The page a buyer lands on back from another site (the payment's, Discord's): a titled panel with
// what came of it, and the ways on.

export const primaryLink =
  'rounded-lg bg-brand-500 px-4 py-2.5 text-center text-sm font-semibold text-ink-950 hover:bg-brand-400';
export const ghostLink =
  'rounded-lg border border-ink-600 px-4 py-2.5 text-center text-sm font-semibold text-slate-200 hover:bg-ink-800';

export function OutcomePanel({ title, children }: { title: string; children: ReactNode }) {
  return (
    <TitledSection look="page" headingId={useId()} title={title}>
      {children}
    </TitledSection>
  );
}

/** Still waiting on the other site: the words, with a spinner, read out as they change. */
export function StillWaiting({ children }: { children: ReactNode }) {
  return (
    <div role="status" aria-live="polite" className="flex items-center gap-3 text-slate-300">
      <span className="text-brand-400">
        <Spinner />
      </span>
      <span>{children}</span>
    </div>
  );
}
