import { useId, type ReactNode } from 'react';

/**
 * A labelled choice among `options` ([value, label] pairs), said like `Field`: its message under it
 * and tied to it for screen readers. `empty` adds a first option for "none" or "all".
 */
export function SelectField<T extends string>({
  label,
  value,
  options,
  onChange,
  empty,
  error,
  hint,
  name,
}: {
  label: string;
  value: T | '';
  options: readonly (readonly [T, string])[];
  onChange: (value: T | '') => void;
  empty?: string;
  error?: string | null | undefined;
  hint?: ReactNode;
  name?: string;
}) {
  const id = useId();
  const describedBy = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-slate-200">
        {label}
      </label>
      <select
        id={id}
        name={name}
        value={value}
        onChange={(e) => onChange(e.target.value as T | '')}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className="rounded-lg border border-ink-600 bg-ink-900 px-3 py-2.5 text-slate-100 focus:border-brand-400"
      >
        {empty !== undefined && <option value="">{empty}</option>}
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
      {error ? (
        <p id={`${id}-error`} className="text-sm text-rose-400">
          {error}
        </p>
      ) : hint ? (
        <p id={`${id}-hint`} className="text-sm text-slate-400">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
