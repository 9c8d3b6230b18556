import { useEffect, useRef } from 'react';
import { useStore } from 'react-redux';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { discordMessages } from '@tradeshelf/contract/client';
import {
  OutcomePanel as Panel,
  ghostLink,
  primaryLink,
  StillWaiting,
} from '../../components/outcome-panel.tsx';
import { Alert, Button } from '../../components/ui.tsx';
import { useAppDispatch, useAppSelector } from '../../lib/hooks.ts';
import type { RootState } from '../../store.ts';
import { completeDiscordAuth } from './api.ts';
import { useConnectDiscord } from './hooks.ts';

/** After a successful link the library opens by itself after this long (a link is there too). */
export const LIBRARY_REDIRECT_MS = 2500;

/** What the buyer reads when they pressed Cancel on Discord's page (`error=access_denied`). */
export const CANCELLED_TEXT =
  'You cancelled on Discord’s page, so nothing was linked. Your purchases are safe: connect whenever you are ready.';

/** A failure in words, with "Try again" (a new authorise link) and the way back to the library. */
function Failed({
  title,
  message,
  vendorUrl,
}: {
  title: string;
  message: string;
  vendorUrl?: string;
}) {
  const { connect, leaving, error } = useConnectDiscord();
  return (
    <Panel title={title}>
      <Alert>{message}</Alert>
      {error && <Alert>{error.error}</Alert>}
      <div className="flex flex-col gap-2 sm:flex-row">
        <Button
          type="button"
          data-testid="discord-try-again"
          loading={leaving}
          onClick={() => connect(vendorUrl)}
        >
          Try again
        </Button>
        <Link to="/library" className={ghostLink}>
          Go to your library
        </Link>
      </div>
    </Panel>
  );
}

/**
 * /discord-auth-callback (docs/product.md#discord-sign-in): Discord sends the buyer back here with `code` and `state` (or
 * `error`). The pair goes to the API once, guarded by the state it carries (React's strict effects
 * and a remount send nothing twice: a state is single use). On success `onLinked` runs (the route
 * reads the profile again: linking fills an empty username; the user feature is not this one's to
 * import, issue 28) and the library opens.
 */
export function DiscordCallback({ onLinked }: { onLinked?: () => void }) {
  const [params] = useSearchParams();
  const code = params.get('code') ?? '';
  const state = params.get('state') ?? '';
  const vendorUrl = params.get('vendorUrl') ?? undefined;
  const denied = params.get('error');
  const dispatch = useAppDispatch();
  const store = useStore<RootState>();
  const navigate = useNavigate();
  const auth = useAppSelector((s) => s.discord.auth);
  const mine = auth.state === state && state !== '';
  // The latest callback, read when the answer comes: a new function each render must not resend.
  const linkedRef = useRef(onLinked);
  useEffect(() => {
    linkedRef.current = onLinked;
  });

  useEffect(() => {
    if (denied || !code || !state) return;
    if (store.getState().discord.auth.state === state) return;
    void dispatch(completeDiscordAuth({ code, state, ...(vendorUrl ? { vendorUrl } : {}) })).then(
      (result) => {
        if (completeDiscordAuth.fulfilled.match(result)) linkedRef.current?.();
      },
    );
  }, [dispatch, store, code, state, vendorUrl, denied]);

  const linked = mine && auth.status === 'success' ? auth.data : null;
  useEffect(() => {
    if (!linked) return;
    const timer = setTimeout(() => void navigate('/library'), LIBRARY_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [linked, navigate]);

  if (denied)
    return (
      <Failed
        title="Discord was not connected"
        message={
          denied === 'access_denied'
            ? CANCELLED_TEXT
            : `Discord did not connect your account: ${params.get('error_description') || denied}.`
        }
        {...(vendorUrl ? { vendorUrl } : {})}
      />
    );
  if (!code || !state)
    return <Failed title="Discord was not connected" message={discordMessages.stateInvalid} />;
  if (linked) {
    const name = linked.discord.globalName ?? linked.discord.username;
    return (
      <Panel title={`Discord connected as ${name}`}>
        <p role="status" className="text-slate-300">
          Your community roles are on their way. Taking you to your library…
        </p>
        <Link to="/library" className={`${primaryLink} self-start`}>
          Go to your library now
        </Link>
      </Panel>
    );
  }
  if (mine && auth.status === 'failure')
    return (
      <Failed
        title="Discord was not connected"
        message={auth.error?.error ?? discordMessages.discordDown}
        {...(vendorUrl ? { vendorUrl } : {})}
      />
    );
  return (
    <Panel title="Connecting your Discord account…">
      <StillWaiting>
        Checking with Discord. This takes a second or two; please keep this page open.
      </StillWaiting>
    </Panel>
  );
}
