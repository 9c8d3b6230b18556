// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import Signup from '../routes/signup.tsx';
import { renderWithApp, type SeenRequest } from '../test/render.tsx';
import { formLevelMessage } from './ui.tsx';

afterEach(cleanup);

describe('formLevelMessage (issue 27: a message said in the banner and at its field)', () => {
  const fieldError = {
    error: 'Enter a valid e-mail address.',
    code: 'validation_failed',
    fields: { email: 'Enter a valid e-mail address.' },
  };

  it('leaves a field’s message to the field', () => {
    expect(formLevelMessage(fieldError)).toBeNull();
    expect(formLevelMessage(fieldError, ['email', 'password'])).toBeNull();
  });

  it('says a form-level error, and a field’s message the form has no field for', () => {
    expect(formLevelMessage({ error: 'Too many tries.', code: 'rate_limited' })).toBe(
      'Too many tries.',
    );
    expect(
      formLevelMessage({ ...fieldError, fields: { ...fieldError.fields, body: 'Send JSON.' } }, [
        'email',
      ]),
    ).toBe('Send JSON.');
    expect(formLevelMessage(null)).toBeNull();
  });
});

describe('sign-up form', () => {
  function signUp(answer: { status: number; body: unknown }) {
    const app = renderWithApp(
      <Routes>
        <Route path="/signup" element={<Signup />} />
        <Route path="*" element={<p>elsewhere</p>} />
      </Routes>,
      {
        url: '/signup',
        answer: (req: SeenRequest) =>
          req.path === '/auth/signup/buyer'
            ? answer
            : { status: 404, body: { error: 'Not found.', code: 'not_found' } },
      },
    );
    return app;
  }

  it('says a refused e-mail once, under the field, and no banner', async () => {
    const message = 'This e-mail address cannot receive mail.';
    signUp({
      status: 400,
      body: { error: message, code: 'validation_failed', fields: { email: message } },
    });
    const ui = userEvent.setup();
    await ui.type(screen.getByLabelText('Email'), 'a@example.com');
    await ui.type(screen.getByLabelText('Password'), 'a-long-enough-password');
    await ui.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findAllByText(message)).toHaveLength(1);
    expect(screen.getByLabelText('Email').getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says a form-level refusal in the banner', async () => {
    signUp({ status: 429, body: { error: 'Too many sign-ups. Try later.', code: 'rate_limited' } });
    const ui = userEvent.setup();
    await ui.type(screen.getByLabelText('Email'), 'a@example.com');
    await ui.type(screen.getByLabelText('Password'), 'a-long-enough-password');
    await ui.click(screen.getByRole('button', { name: 'Sign up' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Too many sign-ups. Try later.');
  });
});
