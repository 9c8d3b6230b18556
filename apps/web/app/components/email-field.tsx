// Loaded with the account and contact forms only, not in the shell every page loads.
import { Field } from './ui.tsx';

/** The e-mail field of the account and contact forms: named, typed and autofilled alike. */
export function EmailField({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange: (value: string) => void;
  error?: string | null | undefined;
}) {
  return (
    <Field
      label="Email"
      name="email"
      type="email"
      autoComplete="email"
      required
      value={value}
      onChange={(e) => onChange(e.target.value)}
      error={error}
    />
  );
}
