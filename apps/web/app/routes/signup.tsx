import { useEffect, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { validateNewPassword } from '@tradeshelf/contract/client';
import { Button, Card, FormError } from '../components/ui.tsx';
import { EmailField, PasswordField } from '../components/email-field.tsx';
import { signup } from '../features/auth/api.ts';
import { reset } from '../features/auth/slice.ts';
import { useAppDispatch, useAppSelector } from '../lib/hooks.ts';
import { pageMeta } from '../lib/seo.ts';

export const meta = () => pageMeta('Sign up', 'Create a free Tradeshelf account.');

export default function Signup() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const state = useAppSelector((s) => s.auth.signup);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string | null>(null);

  useEffect(() => {
    dispatch(reset());
  }, [dispatch]);
  useEffect(() => {
    if (state.status === 'success' && state.data)
      void navigate(`/activate?email=${encodeURIComponent(state.data.email)}&new=1`);
  }, [state.status, state.data, navigate]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const problem = validateNewPassword(password);
    setPasswordError(problem);
    if (!problem) void dispatch(signup({ email: email.trim(), password }));
  };
  const fields = state.error?.fields ?? {};

  return (
    <Card
      title="Sign up"
      subtitle="Buy tools, join communities and take courses from trading vendors."
    >
      <form onSubmit={submit} noValidate className="flex flex-col gap-4">
        {state.status === 'failure' && (
          <FormError error={state.error} shows={['email', 'password']} />
        )}
        <EmailField value={email} onChange={setEmail} error={fields.email} />
        <PasswordField
          fresh
          required
          value={password}
          onChange={(v) => {
            setPassword(v);
            setPasswordError(null);
          }}
          error={passwordError ?? fields.password}
          hint="At least 8 characters. Avoid common passwords."
        />
        <Button type="submit" loading={state.status === 'loading'} disabled={!email || !password}>
          Sign up
        </Button>
        <p className="text-center text-sm text-slate-400">
          Already have an account?{' '}
          <Link
            to="/login"
            className="text-brand-400 underline underline-offset-2 hover:decoration-2"
          >
            Log in
          </Link>
        </p>
      </form>
    </Card>
  );
}
