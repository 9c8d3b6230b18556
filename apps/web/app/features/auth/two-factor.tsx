// The account page's "Two-factor authentication" section (issue 33, ADR 054).
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { screenEndpoints } from '@tradeshelf/contract/client';
import type { ApiError } from '@tradeshelf/contract';
import { ConfirmButton } from '../../components/confirm-step.tsx';
import { Alert, Button, FormError, formLevelMessage } from '../../components/ui.tsx';
import { useToast } from '../../components/toasts.tsx';
import { CodeField } from '../../components/two-factor-field.tsx';
import { useAppDispatch } from '../../lib/hooks.ts';
import { requestThunk as thunk } from '../../lib/thunk.ts';
import { PasswordField } from '../../components/email-field.tsx';

export const fetchTwoFactor = thunk<void, { enabled: boolean; recoveryCodesLeft: number }>(
  'twoFactor/status',
  (_, { api }) => api.call(screenEndpoints.twoFactorStatus, {}),
);
export const startTwoFactor = thunk<void, { secret: string; uri: string }>(
  'twoFactor/setup',
  (_, { api }) => api.call(screenEndpoints.twoFactorSetup, {}),
);
export const confirmTwoFactor = thunk<string, { message: string; recoveryCodes: string[] }>(
  'twoFactor/confirm',
  (code, { api }) => api.call(screenEndpoints.twoFactorConfirm, { body: { code } }),
);
export const disableTwoFactor = thunk<{ code?: string; password?: string }, { message: string }>(
  'twoFactor/disable',
  (body, { api }) => api.call(screenEndpoints.twoFactorDisable, { body }),
);

export const regenerateRecoveryCodes = thunk<string, { message: string; recoveryCodes: string[] }>(
  'twoFactor/recoveryCodes',
  (code, { api }) => api.call(screenEndpoints.twoFactorRecoveryCodes, { body: { code } }),
);

type Stage =
  | { kind: 'loading' }
  | { kind: 'off' }
  | { kind: 'setup'; secret: string; uri: string; qr: string | null }
  | { kind: 'codes'; codes: string[] }
  | { kind: 'on'; left: number };

/** `onStatus` hears whether two-factor is on, when read and when it changes (the e-mail form asks for a code then). */
export function TwoFactorSection({ onStatus }: { onStatus?: (enabled: boolean) => void } = {}) {
  const dispatch = useAppDispatch();
  const told = useRef(onStatus);
  useEffect(() => {
    told.current = onStatus;
  });
  const toast = useToast();
  const [stage, setStage] = useState<Stage>({ kind: 'loading' });
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);

  const show = (r: Awaited<ReturnType<ReturnType<typeof fetchTwoFactor>>>) => {
    if (fetchTwoFactor.fulfilled.match(r)) {
      setStage(
        r.payload.enabled ? { kind: 'on', left: r.payload.recoveryCodesLeft } : { kind: 'off' },
      );
      told.current?.(r.payload.enabled);
    } else setError(r.payload ?? null);
  };
  const load = () => void dispatch(fetchTwoFactor()).then(show);
  useEffect(() => {
    let live = true;
    void dispatch(fetchTwoFactor()).then((r) => live && show(r));
    return () => {
      live = false;
    };
  }, [dispatch]);

  const run = async <T,>(p: Promise<T>) => {
    setBusy(true);
    setError(null);
    try {
      return await p;
    } finally {
      setBusy(false);
    }
  };

  const start = async () => {
    const r = await run(dispatch(startTwoFactor()));
    if (!startTwoFactor.fulfilled.match(r)) return setError(r.payload ?? null);
    // Loaded only here: the QR encoder stays out of every other page's bundle.
    const qr = await import('qrcode')
      .then((m) => m.toDataURL(r.payload.uri, { margin: 1, width: 200 }))
      .catch(() => null);
    setCode('');
    setStage({ kind: 'setup', ...r.payload, qr });
  };

  const confirm = async (e: FormEvent) => {
    e.preventDefault();
    const r = await run(dispatch(confirmTwoFactor(code.trim())));
    if (!confirmTwoFactor.fulfilled.match(r)) return setError(r.payload ?? null);
    setCode('');
    setStage({ kind: 'codes', codes: r.payload.recoveryCodes });
    told.current?.(true);
    toast(r.payload.message);
  };

  const disable = async (e: FormEvent) => {
    e.preventDefault();
    const body = code.trim() ? { code: code.trim() } : { password };
    const r = await run(dispatch(disableTwoFactor(body)));
    if (!disableTwoFactor.fulfilled.match(r)) return setError(r.payload ?? null);
    setCode('');
    setPassword('');
    setStage({ kind: 'off' });
    told.current?.(false);
    toast(r.payload.message);
  };

  const codesText = stage.kind === 'codes' ? stage.codes.join('\n') + '\n' : '';

  // The same field confirms the set-up and turns two-factor off.
  const appCode = (
    <CodeField
      label="Code from the app"
      value={code}
      onChange={setCode}
      error={error?.fields?.code}
    />
  );
  return (
    <section
      aria-labelledby="two-factor-heading"
      className="flex flex-col gap-4 rounded-2xl border border-ink-700 bg-ink-900 p-4 sm:p-6"
    >
      <h2 id="two-factor-heading" className="text-lg font-semibold text-white">
        Two-factor authentication
      </h2>
      {error && <FormError error={error} shows={['code', 'password']} />}
      {stage.kind === 'loading' && <p className="text-sm text-slate-400">Loading…</p>}
      {stage.kind === 'off' && (
        <>
          <p className="text-sm text-slate-300">
            Off. Turn it on to protect your account with a code from an authenticator app. It is
            required before changing a payout account.
          </p>
          <Button type="button" onClick={() => void start()} loading={busy} className="self-start">
            Turn on two-factor authentication
          </Button>
        </>
      )}
      {stage.kind === 'setup' && (
        <form onSubmit={confirm} noValidate className="flex flex-col gap-4">
          <p className="text-sm text-slate-300">
            Scan this QR code with your authenticator app, or type the key, then enter the 6-digit
            code it shows.
          </p>
          {stage.qr && (
            <img
              src={stage.qr}
              alt="QR code for your authenticator app"
              width={200}
              height={200}
              className="rounded bg-white"
            />
          )}
          <p className="text-sm text-slate-300">
            Key:{' '}
            <code data-testid="two-factor-secret" className="break-all font-mono text-white">
              {stage.secret}
            </code>
          </p>
          {appCode}
          <Button type="submit" loading={busy} disabled={!code.trim()} className="self-start">
            Confirm
          </Button>
        </form>
      )}
      {stage.kind === 'codes' && (
        <div className="flex flex-col gap-3">
          <Alert>
            Two-factor authentication is on. Save these recovery codes now: each signs you in once
            if you lose your phone, and they will not be shown again.
          </Alert>
          <ul data-testid="recovery-codes" className="grid grid-cols-2 gap-2 font-mono text-white">
            {stage.codes.map((c) => (
              <li key={c}>{c}</li>
            ))}
          </ul>
          <div className="flex flex-wrap gap-2">
            <Button
              type="button"
              onClick={() =>
                void navigator.clipboard?.writeText(codesText).then(() => toast('Copied'))
              }
            >
              Copy
            </Button>
            <a
              className="rounded-lg border border-ink-600 px-4 py-2 text-sm text-white"
              download="tradeshelf-recovery-codes.txt"
              href={`data:text/plain;charset=utf-8,${encodeURIComponent(codesText)}`}
            >
              Download
            </a>
            <Button type="button" onClick={load}>
              Done
            </Button>
          </div>
        </div>
      )}
      {stage.kind === 'on' && (
        <form onSubmit={disable} noValidate className="flex flex-col gap-4">
          <p className="text-sm text-slate-300">
            On. {stage.left} recovery codes left. To turn it off, enter a current code or your
            password.
          </p>
          {appCode}
          <PasswordField
            label="Or your password"
            value={password}
            onChange={setPassword}
            error={error?.fields?.password}
          />
          <Button
            type="submit"
            loading={busy}
            disabled={!code.trim() && !password}
            className="self-start"
          >
            Turn off
          </Button>
        </form>
      )}
      {stage.kind === 'on' && (
        <NewRecoveryCodes
          onCodes={(codes, message) => {
            setStage({ kind: 'codes', codes });
            toast(message);
          }}
        />
      )}
    </section>
  );
}

/**
 * A new set of recovery codes for a current code (ADR 058): asked in a confirm step, since the old
 * set stops working at once.
 */
function NewRecoveryCodes({ onCodes }: { onCodes: (codes: string[], message: string) => void }) {
  const dispatch = useAppDispatch();
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);

  /** Whether the codes were replaced (else the step stays open with the error). */
  const replace = async () => {
    setBusy(true);
    setError(null);
    const r = await dispatch(regenerateRecoveryCodes(code.trim()));
    setBusy(false);
    if (!regenerateRecoveryCodes.fulfilled.match(r)) {
      setError(r.payload ?? null);
      return false;
    }
    setCode('');
    onCodes(r.payload.recoveryCodes, r.payload.message);
    return true;
  };

  return (
    <ConfirmButton
      label="Get new recovery codes"
      triggerClassName="self-start"
      compact={false}
      tone="primary"
      question="Replace your recovery codes?"
      confirmLabel="Get new codes"
      busy={busy}
      error={formLevelMessage(error, ['code'])}
      onCancel={() => setError(null)}
      onConfirm={replace}
    >
      <p>Your current codes stop working. Enter a code from your authenticator app.</p>
      <CodeField
        label="Current code"
        name="recoveryCodesTotp"
        value={code}
        onChange={setCode}
        error={error?.fields?.code}
      />
    </ConfirmButton>
  );
}
