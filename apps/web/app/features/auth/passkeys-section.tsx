// The account page's "Passkeys" section (issue 33, ADR 054): the list with when each was added and
// last used, adding one (named, after the password and a code when two-factor is on), renaming,
// and removing one in a confirm step that asks for the owner again.
import { useCallback, useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { PASSKEY_NAME_MAX } from '@tradeshelf/contract/client';
import type { AccountConfirm, ApiError, PasskeySummary } from '@tradeshelf/contract';
import { ConfirmStep } from '../../components/confirm-step.tsx';
import { cell, ListTable } from '../../components/list-table.tsx';
import { Screen, type ReadShape } from '../../components/screen.tsx';
import { useToast } from '../../components/toasts.tsx';
import { Button, Field, FormError } from '../../components/ui.tsx';
import { formatDate, formatDateTime } from '../../lib/format.ts';
import { useAppDispatch } from '../../lib/hooks.ts';
import { useBrowserValue } from '../../lib/hydrated.ts';
import { OwnerProof } from '../../components/owner-proof.tsx';
import {
  addPasskey,
  canUsePasskeys,
  fetchPasskeys,
  removePasskey,
  renamePasskey,
} from './passkeys.ts';
import { TitledSection } from '../../components/titled-section.tsx';

/** The password and, with two-factor on, a code: what adding or removing asks (ADR 058, 060). */
function useProof(twoFactor: boolean) {
  const [asked, setAsked] = useState(false);
  const twoFactorOn = twoFactor || asked;
  const password = useState('');
  const code = useState('');
  const body = (): AccountConfirm => ({
    password: password[0],
    ...(twoFactorOn && code[0].trim() ? { twoFactorCode: code[0].trim() } : {}),
  });
  return {
    twoFactorOn,
    password,
    code,
    body,
    ready: Boolean(password[0]) && (!twoFactorOn || Boolean(code[0].trim())),
    /** A refusal naming the code: two-factor was turned on since the page loaded. */
    heard: (e: ApiError | null | undefined) => {
      if (e?.fields?.twoFactorCode) setAsked(true);
    },
    clear: () => {
      password[1]('');
      code[1]('');
    },
  };
}

type Action = { kind: 'rename' | 'remove'; id: string } | null;

export function PasskeysSection({ twoFactor }: { twoFactor: boolean }) {
  const dispatch = useAppDispatch();
  const toast = useToast();
  const [read, setRead] = useState<ReadShape<PasskeySummary[]>>({
    status: 'idle',
    data: null,
    error: null,
  });
  const latest = useRef(0);
  const reload = useCallback(async () => {
    const ticket = ++latest.current;
    const r = await dispatch(fetchPasskeys());
    if (ticket !== latest.current) return;
    setRead((prev) =>
      fetchPasskeys.fulfilled.match(r)
        ? { status: 'success', data: r.payload, error: null }
        : { ...prev, status: 'failure', error: r.payload ?? null },
    );
  }, [dispatch]);
  useEffect(() => {
    void reload();
  }, [reload]);
  // Known only in the browser: the form shows where passkeys can be made.
  const available = useBrowserValue(canUsePasskeys, false);

  const addProof = useProof(twoFactor);
  const [name, setName] = useState('');
  const [adding, setAdding] = useState(false);
  const [addError, setAddError] = useState<ApiError | null>(null);

  const add = async (e: FormEvent) => {
    e.preventDefault();
    setAdding(true);
    setAddError(null);
    const r = await dispatch(addPasskey({ name: name.trim(), proof: addProof.body() }));
    setAdding(false);
    if (!addPasskey.fulfilled.match(r)) {
      addProof.heard(r.payload);
      return setAddError(r.payload ?? null);
    }
    setName('');
    addProof.clear();
    toast(r.payload.message);
    void reload();
  };

  const [action, setAction] = useState<Action>(null);
  const actProof = useProof(twoFactor);
  const [newName, setNewName] = useState('');
  const [busy, setBusy] = useState(false);
  const [actError, setActError] = useState<ApiError | null>(null);
  const open = (next: Action, current?: PasskeySummary) => {
    setActError(null);
    actProof.clear();
    setNewName(current?.name ?? '');
    setAction(next);
  };

  const rename = async (id: string) => {
    setBusy(true);
    setActError(null);
    const r = await dispatch(renamePasskey({ id, name: newName.trim() }));
    setBusy(false);
    if (!renamePasskey.fulfilled.match(r)) return setActError(r.payload ?? null);
    setAction(null);
    toast(r.payload.message);
    void reload();
  };
  const remove = async (id: string) => {
    setBusy(true);
    setActError(null);
    const r = await dispatch(removePasskey({ id, proof: actProof.body() }));
    setBusy(false);
    if (!removePasskey.fulfilled.match(r)) {
      actProof.heard(r.payload);
      return setActError(r.payload ?? null);
    }
    setAction(null);
    actProof.clear();
    toast(r.payload.message);
    void reload();
  };

  const addFields = addError?.fields ?? {};
  return (
    <TitledSection look="settings" headingId="passkeys-heading" title="Passkeys">
      <p className="text-sm text-slate-300">
        Sign in with your fingerprint, face or device PIN instead of your password. With two-factor
        authentication on, a passkey also stands in for the code.
      </p>
      <Screen
        read={read}
        onRetry={() => void reload()}
        loading="Loading your passkeys…"
        size="row"
        rows={1}
        isEmpty={(list) => list.length === 0}
        empty={<p className="text-sm text-slate-400">No passkeys yet.</p>}
      >
        {(list) => (
          <ListTable
            testId="passkeys"
            columns={[
              { label: 'Passkey' },
              { label: 'Last used' },
              { label: 'Actions', hidden: true },
            ]}
          >
            {list.map((p) => (
              <PasskeyRow
                key={p.id}
                passkey={p}
                action={action?.id === p.id ? action.kind : null}
                onRename={() => open({ kind: 'rename', id: p.id }, p)}
                onRemove={() => open({ kind: 'remove', id: p.id })}
              >
                {action?.id === p.id && action.kind === 'rename' && (
                  <form
                    noValidate
                    className="flex flex-col gap-3"
                    onSubmit={(e) => {
                      e.preventDefault();
                      void rename(p.id);
                    }}
                  >
                    <FormError error={actError} shows={['name']} />
                    <Field
                      label="New name"
                      name="passkeyRename"
                      maxLength={PASSKEY_NAME_MAX}
                      value={newName}
                      onChange={(e) => setNewName(e.target.value)}
                      error={actError?.fields?.name}
                    />
                    <div className="flex flex-wrap gap-2">
                      <Button
                        type="submit"
                        className="px-3 py-1.5"
                        loading={busy}
                        disabled={!newName.trim()}
                      >
                        Save
                      </Button>
                      <Button
                        type="button"
                        variant="ghost"
                        className="px-3 py-1.5"
                        disabled={busy}
                        onClick={() => setAction(null)}
                      >
                        Cancel
                      </Button>
                    </div>
                  </form>
                )}
                {action?.id === p.id && action.kind === 'remove' && (
                  <ConfirmStep
                    compact
                    title={`Remove the passkey “${p.name}”?`}
                    confirmLabel="Remove passkey"
                    busy={busy}
                    error={null}
                    testId="confirm-remove-passkey"
                    returnFocusTo={`passkey-remove-${p.id}`}
                    onCancel={() => setAction(null)}
                    onConfirm={() => void remove(p.id)}
                  >
                    <p>It will no longer sign you in. Confirm it is you:</p>
                    <FormError error={actError} shows={['password', 'twoFactorCode']} />
                    <OwnerProof
                      password={actProof.password}
                      code={actProof.code}
                      twoFactorOn={actProof.twoFactorOn}
                      fields={actError?.fields ?? {}}
                    />
                  </ConfirmStep>
                )}
              </PasskeyRow>
            ))}
          </ListTable>
        )}
      </Screen>
      {available ? (
        <form onSubmit={(e) => void add(e)} noValidate className="flex flex-col gap-4">
          <FormError error={addError} shows={['name', 'password', 'twoFactorCode']} />
          <Field
            label="Passkey name"
            name="passkeyName"
            placeholder="e.g. Work laptop"
            maxLength={PASSKEY_NAME_MAX}
            value={name}
            onChange={(e) => setName(e.target.value)}
            error={addFields.name}
          />
          <OwnerProof
            password={addProof.password}
            code={addProof.code}
            twoFactorOn={addProof.twoFactorOn}
            fields={addFields}
          />
          <Button
            type="submit"
            loading={adding}
            disabled={!name.trim() || !addProof.ready}
            className="self-start"
          >
            Add a passkey
          </Button>
        </form>
      ) : (
        <p className="text-sm text-slate-400">This browser cannot make passkeys.</p>
      )}
    </TitledSection>
  );
}

/** A passkey row's button, named with the passkey for screen readers ("Rename Laptop"). */
function RowAction({
  id,
  verb,
  name,
  onClick,
}: {
  id?: string;
  verb: string;
  name: string;
  onClick: () => void;
}) {
  return (
    <Button
      id={id}
      type="button"
      variant="ghost"
      className="px-3 py-1.5"
      aria-label={`${verb} ${name}`}
      onClick={onClick}
    >
      {verb}
    </Button>
  );
}

function PasskeyRow({
  passkey: p,
  action,
  onRename,
  onRemove,
  children,
}: {
  passkey: PasskeySummary;
  action: 'rename' | 'remove' | null;
  onRename: () => void;
  onRemove: () => void;
  children: ReactNode;
}) {
  return (
    <>
      <tr data-testid="passkey-row">
        <td className={`${cell} text-white`}>
          {p.name}
          {p.synced && (
            <span className="ml-2 rounded bg-brand-500/20 px-1.5 py-0.5 text-xs whitespace-nowrap text-brand-300">
              Synced
            </span>
          )}
          <span className="block text-xs text-slate-400">
            added <time dateTime={p.createdAt}>{formatDate(p.createdAt)}</time>
          </span>
        </td>
        <td className={`${cell} text-slate-300`}>
          {p.lastUsedAt ? (
            <time dateTime={p.lastUsedAt}>{formatDateTime(p.lastUsedAt)}</time>
          ) : (
            'Never'
          )}
        </td>
        <td className={`${cell} text-right whitespace-nowrap`}>
          {action === null && (
            <>
              <RowAction verb="Rename" name={p.name} onClick={onRename} />{' '}
              <RowAction
                id={`passkey-remove-${p.id}`}
                verb="Remove"
                name={p.name}
                onClick={onRemove}
              />
            </>
          )}
        </td>
      </tr>
      {action !== null && (
        <tr>
          <td colSpan={3} className={cell}>
            {children}
          </td>
        </tr>
      )}
    </>
  );
}
