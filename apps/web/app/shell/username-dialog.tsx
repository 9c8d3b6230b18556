// The username drawer, loaded only when it shows (a signed-in account without a username), so
// public pages do not carry it (ADR 025).
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { validateUsername } from '@tradeshelf/contract/client';
import { useConnectDiscord } from '../features/discord/hooks.ts';
import { updateProfile } from '../features/users/api.ts';
import { clearUpdateStatus } from '../features/users/slice.ts';
import { useAppDispatch, useAppSelector } from '../lib/hooks.ts';
import { Spinner } from '../components/ui.tsx';

export function UsernamePrompt({ onLogout }: { onLogout: () => void }) {
  const dispatch = useAppDispatch();
  const update = useAppSelector((s) => s.user.updateProfile);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const dialog = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const discord = useConnectDiscord();

  useEffect(() => input.current?.focus(), []);
  // The server's answer (or the fallback) shows until the user edits the name again.
  const shown = error ?? (update.outcome === 'failure' ? update.message : null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const problem = validateUsername(value.trim());
    setError(problem);
    if (!problem) void dispatch(updateProfile({ username: value.trim() }));
  };

  // Keep Tab inside the drawer; Escape does nothing (the prompt cannot be dismissed).
  const trap = (e: KeyboardEvent) => {
    if (e.key === 'Escape') e.preventDefault();
    if (e.key !== 'Tab' || !dialog.current) return;
    const items = dialog.current.querySelectorAll<HTMLElement>('input, button:not([disabled])');
    const first = items[0];
    const last = items[items.length - 1];
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault();
      last?.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first?.focus();
    }
  };

  return (
    <div className="fixed inset-0 z-50 flex items-end bg-black/70">
      <div
        ref={dialog}
        role="dialog"
        aria-modal="true"
        aria-labelledby="username-title"
        aria-describedby="username-text"
        onKeyDown={trap}
        className="h-full w-full overflow-y-auto rounded-t-3xl border-t border-ink-700 bg-ink-900 px-6 py-10 sm:h-auto sm:py-12"
      >
        <form onSubmit={submit} noValidate className="mx-auto flex max-w-md flex-col gap-4">
          <h2 id="username-title" className="text-2xl font-bold text-white">
            Action Required! Update Your Username
          </h2>
          <p id="username-text" className="text-slate-300">
            You need a unique username: it is your identifier in the Tradeshelf community, on
            reviews, in Discord communities and on your profile.
          </p>
          <label htmlFor="username-input" className="text-sm font-medium text-slate-200">
            Username
          </label>
          <input
            ref={input}
            id="username-input"
            name="username"
            placeholder="Enter your username"
            autoComplete="username"
            value={value}
            maxLength={32}
            onChange={(e) => {
              setValue(e.target.value);
              setError(null);
              if (update.outcome === 'failure') dispatch(clearUpdateStatus());
            }}
            aria-invalid={shown ? true : undefined}
            aria-describedby={shown ? 'username-error' : undefined}
            className="rounded-lg border border-ink-600 bg-ink-950 px-3 py-2.5 text-slate-100 placeholder:text-slate-400"
          />
          {shown && (
            <p id="username-error" role="alert" className="text-sm text-rose-400">
              {shown}
            </p>
          )}
          <button
            type="submit"
            disabled={value.trim() === '' || update.loading}
            aria-busy={update.loading || undefined}
            className="inline-flex items-center justify-center gap-2 rounded-lg bg-brand-500 px-4 py-2.5 font-semibold text-ink-950 disabled:cursor-not-allowed disabled:opacity-50"
          >
            {update.loading && <Spinner />}
            Save
          </button>
          {/* docs/product.md#discord-sign-in instead; linking names the account from Discord. */}
          <p className="text-center text-xs text-slate-400">or take your name from Discord</p>
          <button
            type="button"
            onClick={() => discord.connect()}
            disabled={discord.leaving}
            aria-busy={discord.leaving || undefined}
            data-testid="username-discord"
            className="inline-flex items-center justify-center gap-2 rounded-lg border border-ink-600 px-4 py-2.5 font-semibold text-slate-200 hover:bg-ink-800 disabled:cursor-not-allowed disabled:opacity-50"
          >
            {discord.leaving && <Spinner />}
            Connect Discord instead
          </button>
          {discord.error && (
            <p role="alert" className="text-sm text-rose-400">
              {discord.error.error}
            </p>
          )}
          <button
            type="button"
            onClick={onLogout}
            className="self-center text-xs font-medium text-slate-400 underline hover:text-slate-200"
          >
            Log out
          </button>
        </form>
      </div>
    </div>
  );
}
