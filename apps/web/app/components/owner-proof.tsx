import { CodeField } from './two-factor-field.tsx';
import { PasswordField } from './email-field.tsx';

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
      <PasswordField
        label="Current password"
        name="currentPassword"
        value={password}
        onChange={setPassword}
        error={fields.password}
      />
      {twoFactorOn && (
        <CodeField
          label="Two-factor code"
          name="twoFactorCode"
          value={code}
          onChange={setCode}
          error={fields.twoFactorCode}
        />
      )}
    </>
  );
}
