// "Your data": download everything that is the account's, or delete the account (ADR 060). Both
// ask for the password (and the two-factor code when on), as an e-mail change does.
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import type { AccountConfirm, ApiError } from '@tradeshelf/contract';
import { ConfirmStep, useConfirm } from '../../components/confirm-step.tsx';
import { useToast } from '../../components/toasts.tsx';
import { Button, FormError } from '../../components/ui.tsx';
import { useAppDispatch } from '../../lib/hooks.ts';
import { saveFile } from '../../lib/save-file.ts';
import { deleteAccount, exportAccountData } from './api.ts';
import { OwnerProof } from '../../components/owner-proof.tsx';
import { TitledSection } from '../../components/titled-section.tsx';

export function DataSection({ twoFactor }: { twoFactor: boolean }) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const toast = useToast();
  const confirm = useConfirm();
  const [asked, setAsked] = useState(false);
  const twoFactorOn = twoFactor || asked;
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState<'export' | 'delete' | null>(null);
  const [error, setError] = useState<ApiError | null>(null);

  const body = (): AccountConfirm => ({
    password,
    ...(twoFactorOn && code.trim() ? { twoFactorCode: code.trim() } : {}),
  });
  const failed = (e: ApiError | undefined) => {
    if (e?.fields?.twoFactorCode) setAsked(true);
    setError(e ?? null);
  };

  const download = async (e: FormEvent) => {
    e.preventDefault();
    setBusy('export');
    setError(null);
    const r = await dispatch(exportAccountData(body()));
    setBusy(null);
    if (!exportAccountData.fulfilled.match(r)) return failed(r.payload);
    saveFile(
      new Blob([JSON.stringify(r.payload, null, 2)], { type: 'application/json' }),
      `tradeshelf-account-${r.payload.exportedAt.slice(0, 10)}.json`,
    );
    setCode('');
    toast('Your data has been downloaded.');
  };

  const remove = async () => {
    setBusy('delete');
    setError(null);
    const r = await dispatch(deleteAccount(body()));
    setBusy(null);
    if (!deleteAccount.fulfilled.match(r)) {
      confirm.close();
      return failed(r.payload);
    }
    toast(r.payload.message);
    void navigate('/');
  };

  const fields = error?.fields ?? {};
  const ready = Boolean(password) && (!twoFactorOn || Boolean(code.trim()));
  return (
    <TitledSection look="settings" headingId="data-heading" title="Your data">
      <p className="text-sm text-slate-300">
        Download everything that is yours as a JSON file: profile, orders, library, licences,
        reviews, affiliate links and, if you sell, your storefront, sales, API keys and webhook
        endpoints (never their secrets). Deleting the account ends every sign-in and your access;
        orders and payments the law requires us to keep stay, without your name or e-mail.
      </p>
      <form onSubmit={(e) => void download(e)} noValidate className="flex flex-col gap-4">
        <FormError error={error} shows={['password', 'twoFactorCode']} />
        <OwnerProof
          password={[password, setPassword]}
          code={[code, setCode]}
          twoFactorOn={twoFactorOn}
          fields={fields}
        />
        <div className="flex flex-wrap gap-3">
          <Button type="submit" variant="ghost" loading={busy === 'export'} disabled={!ready}>
            Download my data
          </Button>
          {!confirm.open && (
            <Button
              id={confirm.triggerId}
              type="button"
              variant="danger"
              disabled={!ready || busy !== null}
              onClick={confirm.show}
            >
              Delete account
            </Button>
          )}
        </div>
      </form>
      {confirm.open && (
        <ConfirmStep
          title="Delete your account?"
          confirmLabel="Delete my account"
          busy={busy === 'delete'}
          error={null}
          testId="confirm-delete-account"
          returnFocusTo={confirm.triggerId}
          onCancel={confirm.close}
          onConfirm={() => void remove()}
        >
          This cannot be undone. You are signed out everywhere, your access and licences end, and
          your e-mail address is freed. Download your data first if you want to keep it.
        </ConfirmStep>
      )}
    </TitledSection>
  );
}
