import type { ReactNode } from 'react';
import { FieldFrame } from './ui.tsx';

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
  return (
    <FieldFrame label={label} error={error} hint={hint}>
      {(control) => (
        <select
          {...control}
          name={name}
          value={value}
          onChange={(e) => onChange(e.target.value as T | '')}
          className="rounded-lg border border-ink-600 bg-ink-900 px-3 py-2.5 text-slate-100 focus:border-brand-400"
        >
          <SelectOptions options={options} empty={empty} />
        </select>
      )}
    </FieldFrame>
  );
}

/** A select's choices ([value, label] pairs); `empty` adds a first one whose value is "". */
export function SelectOptions({
  options,
  empty,
}: {
  options: readonly (readonly [string, string])[];
  empty?: string | undefined;
}) {
  return (
    <>
      {empty !== undefined && <option value="">{empty}</option>}
      {options.map(([v, text]) => (
        <option key={v} value={v}>
          {text}
        </option>
      ))}
    </>
  );
}
