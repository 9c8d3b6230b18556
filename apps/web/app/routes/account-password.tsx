import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { validateNewPassword } from '@tradeshelf/contract/client';
import { RequireAuth } from '../components/require-auth.tsx';
import { PasswordField } from '../components/email-field.tsx';
import { Alert, Button, Card, FormError } from '../components/ui.tsx';
import { changePassword } from '../features/auth/api.ts';
import { reset } from '../features/auth/slice.ts';
import { useAppDispatch, useAppSelector } from '../lib/hooks.ts';
import { pageMeta } from '../lib/seo.ts';

export const meta = () => pageMeta('Change password');

function ChangePasswordForm() {
  const dispatch = useAppDispatch();
  const state = useAppSelector((s) => s.auth.changePassword);
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<{ next?: string; confirm?: string }>({});

  useEffect(() => {
    dispatch(reset());
  }, [dispatch]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const problems: { next?: string; confirm?: string } = {};
    const rule = validateNewPassword(next);
    if (rule) problems.next = rule;
    if (next !== confirm) problems.confirm = 'The passwords do not match.';
    setErrors(problems);
    if (!problems.next && !problems.confirm)
      void dispatch(changePassword({ currentPassword: current, newPassword: next }));
  };
  const fields = state.error?.fields ?? {};

  if (state.status === 'success') {
    return (
      <Card title="Change password">
        <div className="flex flex-col gap-4">
          <Alert tone="success">{state.data?.message}</Alert>
          <Link
            to="/account"
            className="text-center font-semibold text-brand-400 underline underline-offset-2 hover:decoration-2"
          >
            Back to your account
          </Link>
        </div>
      </Card>
    );
  }
  return (
    <Card title="Change password" subtitle="Other devices will be signed out.">
      <form onSubmit={submit} noValidate className="flex flex-col gap-4">
        {state.status === 'failure' && (
          <FormError error={state.error} shows={['currentPassword', 'newPassword']} />
        )}
        <PasswordField
          label="Current password"
          name="currentPassword"
          value={current}
          onChange={setCurrent}
          error={fields.currentPassword}
        />
        <PasswordField
          fresh
          label="New password"
          name="newPassword"
          value={next}
          onChange={setNext}
          error={errors.next ?? fields.newPassword}
        />
        <PasswordField
          fresh
          label="Confirm new password"
          name="confirmPassword"
          value={confirm}
          onChange={setConfirm}
          error={errors.confirm}
        />
        <Button
          type="submit"
          loading={state.status === 'loading'}
          disabled={!current || !next || !confirm}
        >
          Change password
        </Button>
      </form>
    </Card>
  );
}

export default function AccountPassword() {
  return (
    <RequireAuth>
      <ChangePasswordForm />
    </RequireAuth>
  );
}
