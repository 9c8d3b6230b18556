import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { authMessages } from '@tradeshelf/contract/client';
import { Alert, Button, Card, Field } from '../components/ui.tsx';
import { login } from '../features/auth/api.ts';
import { reset } from '../features/auth/slice.ts';
import { useAppDispatch, useAppSelector } from '../lib/hooks.ts';
import { pageMeta } from '../lib/seo.ts';

export const meta = () => pageMeta('Log in', 'Log in to your Tradeshelf account.');

/** Only same-site paths are followed after login (`?next=`, or `?redirect=`). */
export function safeNext(next: string | null): string {
  return next && next.startsWith('/') && !next.startsWith('//') ? next : '/account';
}

export default function Login() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const state = useAppSelector((s) => s.auth.login);
  const blocked = useAppSelector((s) => s.auth.verificationRequired);
  const isLoggedIn = useAppSelector((s) => s.auth.isLoggedIn);
  const [email, setEmail] = useState(params.get('email') ?? '');
  const [password, setPassword] = useState('');

  useEffect(() => {
    dispatch(reset());
  }, [dispatch]);
  // The session is stored (and the user logged in) 5 s after the answer, per SPEC §4.
  useEffect(() => {
    if (isLoggedIn && state.status === 'success')
      void navigate(safeNext(params.get('next') ?? params.get('redirect')));
  }, [isLoggedIn, state.status, navigate, params]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void dispatch(login({ email: email.trim(), password }));
  };
  const fields = state.error?.fields ?? {};
  const signingIn = state.status === 'success' && !blocked;

  return (
    <Card title="Log in" subtitle="Welcome back. Pick up where you left off.">
      <form onSubmit={submit} noValidate className="flex flex-col gap-4">
        {state.status === 'failure' && state.error && <Alert>{state.error.error}</Alert>}
        {blocked && (
          <Alert>
            {authMessages.verificationExpired}{' '}
            <Link
              className="font-semibold underline"
              to={`/activate?email=${encodeURIComponent(email.trim())}`}
            >
              Activate your account
            </Link>
          </Alert>
        )}
        {signingIn && <Alert tone="success">Signed in. Preparing your account…</Alert>}
        <Field
          label="Email"
          name="email"
          type="email"
          autoComplete="email"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={fields.email}
        />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={fields.password}
        />
        <Button
          type="submit"
          loading={state.status === 'loading' || signingIn}
          disabled={!email || !password}
        >
          Log in
        </Button>
        <div className="flex justify-between text-sm">
          <Link
            to="/forgot-password"
            className="text-brand-400 underline underline-offset-2 hover:decoration-2"
          >
            Forgot password?
          </Link>
          <Link
            to="/signup"
            className="text-brand-400 underline underline-offset-2 hover:decoration-2"
          >
            Create an account
          </Link>
        </div>
      </form>
    </Card>
  );
}
