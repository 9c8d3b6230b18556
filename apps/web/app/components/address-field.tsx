// A postal address as typed, one line per line (invoices print it so), for the billing and
// business details forms (ADR 060). Loaded with those screens only.
import { useId } from 'react';

export function AddressField({
  label,
  value,
  onChange,
  error,
  name,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  error?: string | undefined;
  name: string;
}) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-slate-200">
        {label}
      </label>
      <textarea
        id={id}
        name={name}
        rows={4}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className="rounded-lg border border-ink-600 bg-ink-900 px-3 py-2.5 text-slate-100 placeholder:text-slate-400 focus:border-brand-400"
      />
      {error && (
        <p id={`${id}-error`} className="text-sm text-rose-400">
          {error}
        </p>
      )}
    </div>
  );
}
