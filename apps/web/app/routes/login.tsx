import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link, PrefetchPageLinks, useNavigate, useSearchParams } from 'react-router';
import { authMessages } from '@tradeshelf/contract/client';
import { Alert, Button, Card, Field, FormError } from '../components/ui.tsx';
import { EmailField, PasswordField } from '../components/email-field.tsx';
import { login, loginTwoFactor } from '../features/auth/api.ts';
import {
  canUsePasskeys,
  secondStepWithPasskey,
  signInWithPasskey,
} from '../features/auth/passkeys.ts';
import { reset } from '../features/auth/slice.ts';
import { useAppDispatch, useAppSelector } from '../lib/hooks.ts';
import { useBrowserValue } from '../lib/hydrated.ts';
import { DEFAULT_NEXT, safeNext } from '../lib/next-path.ts';
import { SESSION_STORE_DELAY_MS } from '../lib/session.ts';
import { pageMeta } from '../lib/seo.ts';

export const meta = () => pageMeta('Log in', 'Log in to your Tradeshelf account.');

/** Where a login goes next, in words. */
function destinationName(next: string): string {
  if (next === DEFAULT_NEXT) return 'your account';
  if (next.startsWith('/orders')) return 'your orders';
  if (next.startsWith('/library')) return 'your library';
  if (next.startsWith('/discord-auth-callback')) return 'your Discord connection';
  return 'where you left off';
}

/**
 * docs/product.md#sessions: the session is stored 5 s after a successful answer. That wait is shown as what it is, a
 * success: a welcome with the next page already being fetched, not a button that keeps spinning.
 */
function Welcome({ email, next }: { email: string; next: string }) {
  const heading = useRef<HTMLHeadingElement>(null);
  // The form the user was in is gone: keyboard and screen-reader focus moves to the welcome.
  useEffect(() => heading.current?.focus(), []);
  return (
    <div className="mx-auto w-full max-w-md rounded-2xl border border-brand-500/40 bg-ink-900/80 p-6 shadow-xl sm:p-8">
      <h1 ref={heading} tabIndex={-1} className="text-2xl font-bold text-white outline-none">
        Welcome back
      </h1>
      <div role="status" className="mt-2 flex flex-col gap-4">
        <p className="text-sm text-slate-300">
          You are signed in as <span className="font-semibold text-white">{email}</span>. Taking you
          to {destinationName(next)}…
        </p>
        <div className="h-1.5 overflow-hidden rounded-full bg-ink-700" aria-hidden>
          <div
            className="h-full origin-left animate-session-wait rounded-full bg-brand-400 motion-reduce:animate-none"
            style={{ animationDuration: `${SESSION_STORE_DELAY_MS}ms` }}
          />
        </div>
      </div>
      <PrefetchPageLinks page={next} />
    </div>
  );
}

export default function Login() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const state = useAppSelector((s) => s.auth.login);
  const blocked = useAppSelector((s) => s.auth.verificationRequired);
  const isLoggedIn = useAppSelector((s) => s.auth.isLoggedIn);
  const signingIn = useAppSelector((s) => s.auth.signingIn);
  const [email, setEmail] = useState(params.get('email') ?? '');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const challenge = useAppSelector((s) => s.auth.twoFactorChallenge);
  // Whether the account has a passkey for the second step (the login's answer says).
  const [challengePasskeys, setChallengePasskeys] = useState(false);
  // Passkeys need the browser's WebAuthn: the server renders no button, the browser adds it.
  const passkeysHere = useBrowserValue(canUsePasskeys, false);
  // Which button the login group's `loading` belongs to.
  const [viaPasskey, setViaPasskey] = useState(false);
  // Only paths of this site are followed after login (`?next=`, or `?redirect=`).
  const next = safeNext(params.get('next') ?? params.get('redirect'));

  useEffect(() => {
    dispatch(reset());
  }, [dispatch]);
  // The session is stored (and the user logged in) 5 s after the answer (docs/product.md#sessions).
  useEffect(() => {
    if (isLoggedIn && state.status === 'success') void navigate(next);
  }, [isLoggedIn, state.status, navigate, next]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setViaPasskey(false);
    void dispatch(login({ email: email.trim(), password })).then((r) => {
      if (login.fulfilled.match(r) && r.payload.outcome === 'two-factor')
        setChallengePasskeys(r.payload.passkeys);
    });
  };
  const submitCode = (e: FormEvent) => {
    e.preventDefault();
    setViaPasskey(false);
    if (challenge) void dispatch(loginTwoFactor({ challenge, code: code.trim() }));
  };
  // A passkey instead of the password, or of the code (ADR 054): its answer is the login group's.
  const passkeyInstead = () => {
    setViaPasskey(true);
    if (challenge) void dispatch(secondStepWithPasskey(challenge));
    else void dispatch(signInWithPasskey());
  };
  const loading = state.status === 'loading';
  const fields = state.error?.fields ?? {};

  if (state.status === 'success' && state.data && !blocked)
    return <Welcome email={signingIn ?? state.data.email ?? email.trim()} next={next} />;

  // Password accepted, two-factor on: the second step (ADR 054).
  if (challenge && !blocked)
    return (
      <Card
        title="Two-factor authentication"
        subtitle="Enter the 6-digit code from your authenticator app, or one of your recovery codes."
      >
        <form onSubmit={submitCode} noValidate className="flex flex-col gap-4">
          {state.status === 'failure' && <FormError error={state.error} shows={['code']} />}
          <Field
            label="Code"
            name="code"
            inputMode="text"
            autoComplete="one-time-code"
            autoFocus
            required
            value={code}
            onChange={(e) => setCode(e.target.value)}
            error={fields.code}
          />
          <Button type="submit" loading={loading && !viaPasskey} disabled={!code.trim()}>
            Verify
          </Button>
          {challengePasskeys && passkeysHere && (
            <Button
              type="button"
              variant="ghost"
              loading={loading && viaPasskey}
              onClick={passkeyInstead}
            >
              Use a passkey instead
            </Button>
          )}
          <button
            type="button"
            className="self-start text-sm text-brand-400 underline underline-offset-2"
            onClick={() => {
              setCode('');
              dispatch(reset());
            }}
          >
            Start again
          </button>
        </form>
      </Card>
    );

  return (
    <Card title="Log in" subtitle="Welcome back. Pick up where you left off.">
      <form onSubmit={submit} noValidate className="flex flex-col gap-4">
        {state.status === 'failure' && (
          <FormError error={state.error} shows={['email', 'password']} />
        )}
        {blocked && (
          <Alert>
            {authMessages.verificationExpired}{' '}
            <Link
              className="font-semibold underline"
              to={`/activate?email=${encodeURIComponent(email.trim() || (state.data?.email ?? ''))}`}
            >
              Activate your account
            </Link>
          </Alert>
        )}
        <EmailField value={email} onChange={setEmail} error={fields.email} />
        <PasswordField required value={password} onChange={setPassword} error={fields.password} />
        <Button type="submit" loading={loading && !viaPasskey} disabled={!email || !password}>
          Log in
        </Button>
        {passkeysHere && (
          <Button
            type="button"
            variant="ghost"
            loading={loading && viaPasskey}
            onClick={passkeyInstead}
          >
            Sign in with a passkey
          </Button>
        )}
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
