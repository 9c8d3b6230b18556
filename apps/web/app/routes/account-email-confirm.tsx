import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { ApiError } from '@tradeshelf/contract';
import { Alert, Button } from '../components/ui.tsx';
import { confirmEmailChange } from '../features/account/api.ts';
import { fetchProfile } from '../features/users/index.ts';
import { useAppDispatch, useAppSelector } from '../lib/hooks.ts';
import { pageMeta } from '../lib/seo.ts';

export const meta = () => [
  ...pageMeta('Confirm your new e-mail', 'Confirm the new e-mail address of your account.'),
  { name: 'robots', content: 'noindex' },
];

/**
 * The link mailed to a new address lands here (ADR 058). The change takes a press, not the page
 * load, so a mail scanner that follows links changes nothing. No sign-in needed: the link is the proof.
 */
export default function AccountEmailConfirm() {
  const dispatch = useAppDispatch();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const isLoggedIn = useAppSelector((s) => s.auth.isLoggedIn);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const [done, setDone] = useState<{ message: string; email: string } | null>(null);

  const confirm = async () => {
    setBusy(true);
    setError(null);
    const r = await dispatch(confirmEmailChange(token));
    setBusy(false);
    if (!confirmEmailChange.fulfilled.match(r)) return setError(r.payload ?? null);
    setDone(r.payload);
    if (isLoggedIn) void dispatch(fetchProfile());
  };

  return (
    <div className="mx-auto flex max-w-md flex-col gap-4 rounded-2xl border border-ink-700 bg-ink-900 p-6">
      <h1 className="text-2xl font-bold text-white">Confirm your new e-mail</h1>
      {done ? (
        <div role="status" className="flex flex-col gap-3 text-slate-200">
          <p>
            {done.message} Your account now uses{' '}
            <strong className="break-all text-white">{done.email}</strong>.
          </p>
          <Link
            to={isLoggedIn ? '/account' : '/login'}
            className="font-semibold text-brand-300 underline underline-offset-2"
          >
            {isLoggedIn ? 'Back to your account' : 'Log in'}
          </Link>
        </div>
      ) : (
        <>
          <p className="text-slate-300">
            Use this address for your Tradeshelf account from now on. Mail about your account will
            come here.
          </p>
          {error && <Alert>{error.error}</Alert>}
          {!token && <Alert>This link has no token. Use the link from the e-mail as it is.</Alert>}
          <Button
            type="button"
            disabled={!token}
            loading={busy}
            onClick={() => void confirm()}
            className="self-start"
          >
            Confirm new e-mail
          </Button>
        </>
      )}
    </div>
  );
}
