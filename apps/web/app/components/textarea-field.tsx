// Text that runs over lines, said like `Field`: a postal address as typed, one line per line
// (invoices print it so; ADR 060), a storefront's longer texts, a message, an alert, a reason.
import type { ReactNode, TextareaHTMLAttributes } from 'react';
import { FieldFrame } from './ui.tsx';

export function TextAreaField({
  label,
  value,
  onChange,
  error,
  hint,
  rows = 4,
  ...textarea
}: Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'value' | 'onChange'> & {
  label: string;
  value: string;
  onChange: (v: string) => void;
  error?: string | null | undefined;
  hint?: ReactNode;
}) {
  return (
    <FieldFrame label={label} error={error} hint={hint}>
      {(control) => (
        <textarea
          {...textarea}
          {...control}
          rows={rows}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          className="rounded-lg border border-ink-600 bg-ink-900 px-3 py-2.5 text-slate-100 placeholder:text-slate-400 focus:border-brand-400"
        />
      )}
    </FieldFrame>
  );
}
