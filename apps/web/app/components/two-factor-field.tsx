// The one-time code fields (e-mailed, or from the authenticator app), loaded with the screens that
// ask for one only (not in the shell).
import type { ComponentProps } from 'react';
import { Link } from 'react-router';
import { Field } from './ui.tsx';

/** A one-time code: digits, offered from the browser's code autofill. */
export function CodeField({
  label = 'Code',
  name = 'code',
  onChange,
  ...input
}: Omit<ComponentProps<typeof Field>, 'label' | 'value' | 'onChange'> & {
  label?: string;
  value: string;
  onChange: (v: string) => void;
}) {
  return (
    <Field
      label={label}
      name={name}
      inputMode="numeric"
      autoComplete="one-time-code"
      onChange={(e) => onChange(e.target.value)}
      {...input}
    />
  );
}

/** The current code a payout-account change asks for (ADR 054), next to its button. */
export function TwoFactorCodeField({
  value,
  onChange,
  purpose = 'Setting up or changing a payout account',
}: {
  value: string;
  onChange: (v: string) => void;
  /** What needs the code, as the hint says it. */
  purpose?: string;
}) {
  return (
    <div className="flex max-w-xs flex-col gap-1">
      <CodeField label="Two-factor code" name="twoFactorCode" value={value} onChange={onChange} />
      <p className="text-xs text-slate-400">
        {purpose} needs a code from your authenticator app.{' '}
        <Link to="/account" className="underline">
          Two-factor settings
        </Link>
      </p>
    </div>
  );
}
