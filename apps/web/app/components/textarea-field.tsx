// Text that runs over lines, said like `Field`: a postal address as typed, one line per line
// (invoices print it so; ADR 060), or a storefront's longer texts. Loaded with those screens only.
import type { ReactNode } from 'react';
import { FieldFrame } from './ui.tsx';

export function TextAreaField({
  label,
  value,
  onChange,
  error,
  hint,
  name,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  error?: string | undefined;
  hint?: ReactNode;
  name?: string;
}) {
  return (
    <FieldFrame label={label} error={error} hint={hint}>
      {(control) => (
        <textarea
          {...control}
          name={name}
          rows={4}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          className="rounded-lg border border-ink-600 bg-ink-900 px-3 py-2.5 text-slate-100 placeholder:text-slate-400 focus:border-brand-400"
        />
      )}
    </FieldFrame>
  );
}
