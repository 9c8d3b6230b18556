// Loaded with the account and contact forms only, not in the shell every page loads.
import type { ComponentProps } from 'react';
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

/** A password field: hidden as typed, and autofilled as the saved one or, when `fresh`, a new one. */
export function PasswordField({
  label = 'Password',
  name = 'password',
  fresh = false,
  onChange,
  ...input
}: Omit<ComponentProps<typeof Field>, 'label' | 'value' | 'onChange' | 'type' | 'autoComplete'> & {
  label?: string;
  value: string;
  onChange: (value: string) => void;
  /** A new password (sign-up, reset, change), not the one saved. */
  fresh?: boolean;
}) {
  return (
    <Field
      label={label}
      name={name}
      type="password"
      autoComplete={fresh ? 'new-password' : 'current-password'}
      onChange={(e) => onChange(e.target.value)}
      {...input}
    />
  );
}
