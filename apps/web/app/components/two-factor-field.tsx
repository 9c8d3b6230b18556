// The payout screens' code field (ADR 054), loaded with those screens only (not in the shell).
import { Link } from 'react-router';
import { Field } from './ui.tsx';

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
      <Field
        label="Two-factor code"
        name="twoFactorCode"
        inputMode="numeric"
        autoComplete="one-time-code"
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
      <p className="text-xs text-slate-400">
        {purpose} needs a code from your authenticator app.{' '}
        <Link to="/account" className="underline">
          Two-factor settings
        </Link>
      </p>
    </div>
  );
}
