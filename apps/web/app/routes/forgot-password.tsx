import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { validateNewPassword } from '@tradeshelf/contract/client';
import { Alert, Button, Card, FormError } from '../components/ui.tsx';
import { EmailField, PasswordField } from '../components/email-field.tsx';
import { CodeField } from '../components/two-factor-field.tsx';
import {
  checkForgotPasswordCode,
  resetForgotPassword,
  sendForgotPasswordEmail,
} from '../features/auth/api.ts';
import { reset } from '../features/auth/slice.ts';
import { useAppDispatch, useAppSelector } from '../lib/hooks.ts';
import { pageMeta } from '../lib/seo.ts';

export const meta = () =>
  pageMeta(
    'Reset your password',
    'Reset your Tradeshelf password with a code sent to your e-mail.',
  );

/** Three steps, three statuses (docs/product.md#request-groups): send the e-mail, check the code, set the new password. */
export default function ForgotPassword() {
  const dispatch = useAppDispatch();
  const { sendEmail, checkCode, reset: resetState } = useAppSelector((s) => s.auth.forgotPassword);
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string | null>(null);

  useEffect(() => {
    dispatch(reset());
  }, [dispatch]);

  const step =
    resetState.status === 'success'
      ? 4
      : checkCode.status === 'success'
        ? 3
        : sendEmail.status === 'success'
          ? 2
          : 1;

  const send = (e: FormEvent) => {
    e.preventDefault();
    void dispatch(sendForgotPasswordEmail({ email: email.trim() }));
  };
  const check = (e: FormEvent) => {
    e.preventDefault();
    void dispatch(checkForgotPasswordCode({ email: email.trim(), code: code.trim() }));
  };
  const submitReset = (e: FormEvent) => {
    e.preventDefault();
    const problem = validateNewPassword(password);
    setPasswordError(problem);
    if (!problem)
      void dispatch(resetForgotPassword({ email: email.trim(), code: code.trim(), password }));
  };

  return (
    <Card title="Reset your password" subtitle={`Step ${Math.min(step, 3)} of 3`}>
      {step === 1 && (
        <form onSubmit={send} noValidate className="flex flex-col gap-4">
          {sendEmail.status === 'failure' && (
            <FormError error={sendEmail.error} shows={['email']} />
          )}
          <EmailField value={email} onChange={setEmail} error={sendEmail.error?.fields?.email} />
          <Button type="submit" loading={sendEmail.status === 'loading'} disabled={!email}>
            Send code
          </Button>
        </form>
      )}
      {step === 2 && (
        <form onSubmit={check} noValidate className="flex flex-col gap-4">
          <Alert tone="success">{sendEmail.data?.message}</Alert>
          {checkCode.status === 'failure' && checkCode.error && (
            <Alert>{checkCode.error.error}</Alert>
          )}
          <CodeField maxLength={6} value={code} onChange={setCode} />
          <Button
            type="submit"
            loading={checkCode.status === 'loading'}
            disabled={code.trim().length !== 6}
          >
            Verify code
          </Button>
          <button
            type="button"
            className="text-sm text-brand-400 underline underline-offset-2 hover:decoration-2"
            onClick={() => void dispatch(sendForgotPasswordEmail({ email: email.trim() }))}
          >
            Send a new code
          </button>
        </form>
      )}
      {step === 3 && (
        <form onSubmit={submitReset} noValidate className="flex flex-col gap-4">
          <Alert tone="success">{checkCode.data?.message}</Alert>
          {resetState.status === 'failure' && (
            <FormError error={resetState.error} shows={['password']} />
          )}
          <PasswordField
            fresh
            label="New password"
            value={password}
            onChange={(v) => {
              setPassword(v);
              setPasswordError(null);
            }}
            error={passwordError ?? resetState.error?.fields?.password}
          />
          <Button type="submit" loading={resetState.status === 'loading'} disabled={!password}>
            Reset password
          </Button>
        </form>
      )}
      {step === 4 && (
        <div className="flex flex-col gap-4">
          <Alert tone="success">{resetState.data?.message}</Alert>
          <Link
            to={`/login?email=${encodeURIComponent(email.trim())}`}
            className="text-center font-semibold text-brand-400 underline underline-offset-2 hover:decoration-2"
          >
            Log in
          </Link>
        </div>
      )}
    </Card>
  );
}
