import { Field } from './ui.tsx';

/**
 * What a sensitive account change asks for (ADR 058, 060): the current password, and a current
 * code when two-factor is on; each with the server's message for it.
 */
export function OwnerProof({
  password: [password, setPassword],
  code: [code, setCode],
  twoFactorOn,
  fields,
}: {
  password: [string, (v: string) => void];
  code: [string, (v: string) => void];
  twoFactorOn: boolean;
  fields: Record<string, string>;
}) {
  return (
    <>
      <Field
        label="Current password"
        name="currentPassword"
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        error={fields.password}
      />
      {twoFactorOn && (
        <Field
          label="Two-factor code"
          name="twoFactorCode"
          inputMode="numeric"
          autoComplete="one-time-code"
          value={code}
          onChange={(e) => setCode(e.target.value)}
          error={fields.twoFactorCode}
        />
      )}
    </>
  );
}
