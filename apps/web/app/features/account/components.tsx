// The account page's sections for issue 33 (ADR 058): devices, e-mail and username.
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import {
  USERNAME_CHANGE_DAYS,
  USERNAME_HOLD_DAYS,
  usersMessages,
  validateUsername,
} from '@tradeshelf/contract/client';
import type { AccountSession, AccountSettings, ApiError } from '@tradeshelf/contract';
import { ConfirmStep, useConfirm } from '../../components/confirm-step.tsx';
import { EmailField } from '../../components/email-field.tsx';
import { cell, ListTable } from '../../components/list-table.tsx';
import { Screen, type ReadShape } from '../../components/screen.tsx';
import { useToast } from '../../components/toasts.tsx';
import { Alert, Button, Field, FormError } from '../../components/ui.tsx';
import { OwnerProof } from '../../components/owner-proof.tsx';
import { formatDate, formatDateTime } from '../../lib/format.ts';
import { useAppDispatch } from '../../lib/hooks.ts';
import { clearUpdateStatus, updateProfile } from '../users/index.ts';
import {
  endOtherSessions,
  endSession,
  fetchAccountSettings,
  fetchSessions,
  requestEmailChange,
} from './api.ts';
import { TitledSection } from '../../components/titled-section.tsx';

type Loader = () => Promise<{ payload: unknown; meta: { requestStatus: string } }>;

/** A read kept by the section that shows it: `Screen` draws it; `reload` keeps what it had meanwhile. */
function useRead<T>(load: Loader): [ReadShape<T>, () => void] {
  const [read, setRead] = useState<ReadShape<T>>({ status: 'idle', data: null, error: null });
  const latest = useRef(0);
  const reload = useCallback(async () => {
    const ticket = ++latest.current;
    // No `loading` step: the first read shows the skeleton (no data yet), a reload the old rows.
    const r = await load();
    if (ticket !== latest.current) return;
    setRead((prev) =>
      r.meta.requestStatus === 'fulfilled'
        ? { status: 'success', data: r.payload as T, error: null }
        : { ...prev, status: 'failure', error: (r.payload as ApiError | undefined) ?? null },
    );
  }, [load]);
  useEffect(() => {
    void reload();
  }, [reload]);
  return [read, () => void reload()];
}

/** The account's settings (username date, pending e-mail), read once for the sections below. */
export function useAccountSettings(): [ReadShape<AccountSettings>, () => void] {
  const dispatch = useAppDispatch();
  const load = useCallback(() => dispatch(fetchAccountSettings()), [dispatch]);
  return useRead<AccountSettings>(load);
}

/** "Devices": the active sign-ins, this one marked, each other one with its Log out. */
export function DevicesSection() {
  const dispatch = useAppDispatch();
  const toast = useToast();
  const load = useCallback(() => dispatch(fetchSessions()), [dispatch]);
  const [read, reload] = useRead<AccountSession[]>(load);
  const [ending, setEnding] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const others = useConfirm();

  const endOne = async (id: string) => {
    setBusy(true);
    setError(null);
    const r = await dispatch(endSession(id));
    setBusy(false);
    if (!endSession.fulfilled.match(r)) return setError(r.payload?.error ?? 'Something went wrong');
    setEnding(null);
    toast(r.payload.message);
    reload();
  };
  const endOthers = async () => {
    setBusy(true);
    setError(null);
    const r = await dispatch(endOtherSessions());
    setBusy(false);
    if (!endOtherSessions.fulfilled.match(r))
      return setError(r.payload?.error ?? 'Something went wrong');
    others.close();
    toast(r.payload.message);
    reload();
  };

  return (
    <TitledSection look="settings" headingId="devices-heading" title="Devices">
      <p className="text-sm text-slate-300">
        Where your account is signed in. Addresses are shortened on purpose; log out anything you do
        not recognise, then change your password.
      </p>
      <Screen read={read} onRetry={reload} loading="Loading your devices…" size="row" rows={2}>
        {(sessions) => (
          <>
            {/* Three columns, the address and start under the device: a phone needs no sideways scroll. */}
            <ListTable
              testId="devices"
              columns={[
                { label: 'Device' },
                { label: 'Last seen' },
                { label: 'Actions', hidden: true },
              ]}
            >
              {sessions.map((s) => (
                <DeviceRow
                  key={s.id}
                  session={s}
                  confirming={ending === s.id}
                  busy={busy}
                  error={ending === s.id ? error : null}
                  onAsk={() => {
                    setError(null);
                    setEnding(s.id);
                  }}
                  onCancel={() => setEnding(null)}
                  onConfirm={() => void endOne(s.id)}
                />
              ))}
            </ListTable>
            {/* DB-IP's licence (CC BY 4.0) asks for this link wherever its places are shown. */}
            {sessions.some((s) => s.place) && (
              <p className="text-xs text-slate-400">
                Places are estimated from the address:{' '}
                <a className="underline hover:text-white" href="https://db-ip.com">
                  IP Geolocation by DB-IP
                </a>
                .
              </p>
            )}
            {sessions.some((s) => !s.current) &&
              (others.open ? (
                <ConfirmStep
                  title="Log out every other device?"
                  confirmLabel="Log out everywhere else"
                  busy={busy}
                  error={ending === null ? error : null}
                  returnFocusTo={others.triggerId}
                  onCancel={others.close}
                  onConfirm={() => void endOthers()}
                >
                  <p>This device stays signed in. The others are sent to the log-in page.</p>
                </ConfirmStep>
              ) : (
                <Button
                  id={others.triggerId}
                  type="button"
                  variant="ghost"
                  className="self-start"
                  onClick={() => {
                    setEnding(null);
                    setError(null);
                    others.show();
                  }}
                >
                  Log out everywhere else
                </Button>
              ))}
          </>
        )}
      </Screen>
    </TitledSection>
  );
}

function DeviceRow({
  session: s,
  confirming,
  busy,
  error,
  onAsk,
  onCancel,
  onConfirm,
}: {
  session: AccountSession;
  confirming: boolean;
  busy: boolean;
  error: string | null;
  onAsk: () => void;
  onCancel: () => void;
  onConfirm: () => void;
}) {
  const triggerId = `end-${s.id}`;
  return (
    <>
      <tr data-testid="device-row">
        <td className={`${cell} text-white`}>
          {s.device}
          {s.current && (
            <span className="ml-2 rounded bg-brand-500/20 px-1.5 py-0.5 text-xs whitespace-nowrap text-brand-300">
              This device
            </span>
          )}
          <span className="block text-xs text-slate-400">
            {s.place && <>{s.place} · </>}
            <span className="font-mono">{s.address}</span> · signed in{' '}
            <time dateTime={s.createdAt}>{formatDate(s.createdAt)}</time>
          </span>
        </td>
        <td className={`${cell} text-slate-300`}>
          <time dateTime={s.lastSeenAt}>{formatDateTime(s.lastSeenAt)}</time>
        </td>
        <td className={`${cell} text-right`}>
          {!s.current && !confirming && (
            <Button
              id={triggerId}
              type="button"
              variant="ghost"
              className="px-3 py-1.5"
              aria-label={`Log out ${s.device}, ${s.place ? `${s.place}, ` : ''}${s.address}`}
              onClick={onAsk}
            >
              Log out
            </Button>
          )}
        </td>
      </tr>
      {confirming && (
        <tr>
          <td colSpan={3} className={cell}>
            <ConfirmStep
              compact
              title={`Log out ${s.device} (${s.address})?`}
              confirmLabel="Log out"
              busy={busy}
              error={error}
              returnFocusTo={triggerId}
              onCancel={onCancel}
              onConfirm={onConfirm}
            />
          </td>
        </tr>
      )}
    </>
  );
}

/** "E-mail": the address, a pending change, and the form that asks for one. */
export function EmailSection({
  settings,
  twoFactor,
  onChanged,
}: {
  settings: ReadShape<AccountSettings>;
  /** Whether two-factor is on, as the page's two-factor section last read it. */
  twoFactor: boolean;
  onChanged: () => void;
}) {
  const dispatch = useAppDispatch();
  // Two-factor turned on elsewhere since: the answer asks for the code, and the field shows.
  const [asked, setAsked] = useState(false);
  const twoFactorOn = twoFactor || asked;
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const [sent, setSent] = useState<string | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setSent(null);
    const body = {
      email: email.trim(),
      password,
      ...(twoFactorOn && code.trim() ? { twoFactorCode: code.trim() } : {}),
    };
    const r = await dispatch(requestEmailChange(body));
    setBusy(false);
    if (!requestEmailChange.fulfilled.match(r)) {
      // Two-factor turned on since the page loaded: the answer asks for the code.
      if (r.payload?.fields?.twoFactorCode) setAsked(true);
      return setError(r.payload ?? null);
    }
    setSent(r.payload.message);
    setPassword('');
    setCode('');
    onChanged();
  };
  const fields = error?.fields ?? {};
  const pending = settings.data?.pendingEmail;

  return (
    <TitledSection look="settings" headingId="email-heading" title="E-mail">
      <p className="text-sm text-slate-300">
        A new address takes effect once you open the link we send to it (within 24 hours). Until
        then, your current one stays.
      </p>
      {sent && <Alert tone="success">{sent}</Alert>}
      {pending && !sent && (
        <Alert tone="info">
          Waiting for confirmation: <strong>{pending.email}</strong>, until{' '}
          <time dateTime={pending.expiresAt}>{formatDateTime(pending.expiresAt)}</time>.
        </Alert>
      )}
      <form onSubmit={(e) => void submit(e)} noValidate className="flex flex-col gap-4">
        <FormError error={error} shows={['email', 'password', 'twoFactorCode']} />
        <EmailField value={email} onChange={setEmail} error={fields.email} />
        <OwnerProof
          password={[password, setPassword]}
          code={[code, setCode]}
          twoFactorOn={twoFactorOn}
          fields={fields}
        />
        <Button
          type="submit"
          loading={busy}
          disabled={!email.trim() || !password}
          className="self-start"
        >
          Send confirmation link
        </Button>
      </form>
    </TitledSection>
  );
}

/** "Username": the current name and the form that changes it, with the limits said up front. */
export function UsernameSection({
  settings,
  onChanged,
}: {
  settings: ReadShape<AccountSettings>;
  onChanged: () => void;
}) {
  const dispatch = useAppDispatch();
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [serverError, setServerError] = useState<ApiError | null>(null);
  const changeableFrom = settings.data?.usernameChangeableFrom ?? null;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const rule = validateUsername(name.trim());
    setProblem(rule);
    setServerError(null);
    if (rule) return;
    setBusy(true);
    const r = await dispatch(updateProfile({ username: name.trim() }));
    setBusy(false);
    // The outcome is said here, not by the username prompt's message.
    dispatch(clearUpdateStatus());
    if (!updateProfile.fulfilled.match(r)) return setServerError(r.payload ?? null);
    setName('');
    toast(usersMessages.usernameUpdated);
    onChanged();
  };

  return (
    <TitledSection look="settings" headingId="username-heading" title="Username">
      <p className="text-sm text-slate-300">
        You can change it once every {USERNAME_CHANGE_DAYS} days; the old name stays reserved for
        you for {USERNAME_HOLD_DAYS} days, then anyone may take it.
      </p>
      {changeableFrom && (
        <Alert tone="info">
          Your next change is possible on{' '}
          <time dateTime={changeableFrom}>{formatDate(changeableFrom)}</time>.
        </Alert>
      )}
      <form onSubmit={(e) => void submit(e)} noValidate className="flex flex-col gap-4">
        <FormError error={serverError} shows={['username']} />
        <Field
          label="New username"
          name="username"
          autoComplete="username"
          value={name}
          onChange={(e) => {
            setName(e.target.value);
            setProblem(null);
          }}
          hint="4 to 15 letters, numbers or single underscores."
          error={problem ?? serverError?.fields?.username}
        />
        <Button type="submit" loading={busy} disabled={!name.trim()} className="self-start">
          Change username
        </Button>
      </form>
    </TitledSection>
  );
}
