import { useEffect, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Alert, Button, Card, FormError } from '../components/ui.tsx';
import { EmailField } from '../components/email-field.tsx';
import { CodeField } from '../components/two-factor-field.tsx';
import { sendAccountActivationEmail, verifyAccountActivation } from '../features/auth/api.ts';
import { reset } from '../features/auth/slice.ts';
import { fetchProfile } from '../features/users/api.ts';
import { useAppDispatch, useAppSelector } from '../lib/hooks.ts';
import { useHydrated } from '../lib/hydrated.ts';
import { useServices } from '../lib/services.tsx';
import { pageMeta } from '../lib/seo.ts';

export const meta = () =>
  pageMeta(
    'Activate your account',
    'Enter the code we e-mailed you to activate your Tradeshelf account.',
  );

export default function Activate() {
  const dispatch = useAppDispatch();
  const [params] = useSearchParams();
  const verify = useAppSelector((s) => s.auth.verifyAccountActivation);
  const resend = useAppSelector((s) => s.auth.sendAccountActivationEmail);
  const isLoggedIn = useAppSelector((s) => s.auth.isLoggedIn);
  const { session } = useServices();
  // null until the user types: the field then shows the link's e-mail, else the session's.
  const [typed, setEmail] = useState<string | null>(null);
  const hydrated = useHydrated();
  const [code, setCode] = useState('');

  useEffect(() => {
    dispatch(reset());
  }, [dispatch]);
  // Prefill from the session (stored, or a sign-up still waiting out its delay), after hydration
  // so the server and first client render agree.
  const known = hydrated
    ? (session.peek()?.userEmail ?? session.pendingAnswer()?.email)
    : undefined;
  const email = typed ?? params.get('email') ?? known ?? '';

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void dispatch(verifyAccountActivation({ email: email.trim(), code: code.trim() })).then(
      (result) => {
        // The profile shows the verified badge from the server's record.
        if (verifyAccountActivation.fulfilled.match(result) && session.peek()) {
          void dispatch(fetchProfile());
        }
      },
    );
  };

  if (verify.status === 'success') {
    return (
      <Card title="Account activated">
        <div className="flex flex-col gap-4">
          <Alert tone="success">{verify.data?.message}</Alert>
          {isLoggedIn || session.pendingAnswer() ? (
            <Link
              to="/account"
              className="text-center font-semibold text-brand-400 underline underline-offset-2 hover:decoration-2"
            >
              Go to your account
            </Link>
          ) : (
            <Link
              to={`/login?email=${encodeURIComponent(email.trim())}`}
              className="text-center font-semibold text-brand-400 underline underline-offset-2 hover:decoration-2"
            >
              Continue to log in
            </Link>
          )}
        </div>
      </Card>
    );
  }

  return (
    <Card
      title="Activate your account"
      subtitle={
        params.get('new')
          ? 'Your account is ready. We e-mailed you a 6-digit code to confirm your address.'
          : 'Enter the 6-digit code we e-mailed you.'
      }
    >
      <form onSubmit={submit} noValidate className="flex flex-col gap-4">
        {verify.status === 'failure' && (
          <FormError error={verify.error} shows={['email', 'code']} />
        )}
        {resend.status === 'success' && <Alert tone="success">{resend.data?.message}</Alert>}
        {resend.status === 'failure' && resend.error && <Alert>{resend.error.error}</Alert>}
        <EmailField value={email} onChange={setEmail} error={verify.error?.fields?.email} />
        <CodeField
          maxLength={6}
          value={code}
          onChange={setCode}
          error={verify.error?.fields?.code}
          hint="6 digits, from the e-mail we sent you."
        />
        <Button
          type="submit"
          loading={verify.status === 'loading'}
          disabled={!email || code.trim().length !== 6}
        >
          Activate account
        </Button>
        <Button
          type="button"
          variant="ghost"
          loading={resend.status === 'loading'}
          disabled={!email}
          onClick={() => void dispatch(sendAccountActivationEmail({ email: email.trim() }))}
        >
          Resend code
        </Button>
      </form>
    </Card>
  );
}
