import { useId, useState } from 'react';
import { Link } from 'react-router';
import type { AccessEvent, AccessHealthStatus, Community } from '@tradeshelf/contract';
import { ConfirmStep } from '../../components/confirm-step.tsx';
import { EventHistory } from '../../components/event-history.tsx';
import { Alert, Button, PictureOrLetters, Spinner } from '../../components/ui.tsx';
import { useToast } from '../../components/toasts.tsx';
import { formatDate, formatDateTime } from '../../lib/format.ts';
import { useAppDispatch, useAppSelector } from '../../lib/hooks.ts';
import { productPath } from '../../lib/paths.ts';
import { fetchCommunities, reconnectCommunity, unlinkDiscord } from './api.ts';
import { useConnectDiscord, useDiscordLink } from './hooks.ts';
import { useCommunities } from './poll.ts';
import { Loading } from '../../components/screen.tsx';

/** A health in one or two words, with its colour (dark theme, AA contrast on ink-900). */
const healthLabels: Record<AccessHealthStatus, [string, string]> = {
  active: ['Active', 'bg-brand-500/20 text-brand-200'],
  granting: ['Giving access', 'bg-sky-500/20 text-sky-200'],
  needs_link: ['Discord not connected', 'bg-amber-500/20 text-amber-200'],
  needs_join: ['Join the server', 'bg-amber-500/20 text-amber-200'],
  failing: ['Having trouble', 'bg-rose-500/20 text-rose-200'],
  ended: ['Ended', 'bg-slate-500/20 text-slate-300'],
};

const eventLabels: Record<AccessEvent['type'], string> = {
  granted: 'Granted',
  revoked: 'Removed',
  repaired: 'Repaired',
  failed: 'Failed',
  needs_buyer: 'Waiting for you',
};

const linkClass =
  'inline-flex items-center justify-center gap-2 rounded-lg bg-brand-500 px-4 py-2.5 text-sm font-semibold text-ink-950 hover:bg-brand-400';
const quietLink =
  'text-sm font-semibold text-brand-400 underline underline-offset-2 hover:decoration-2';

/** The health in words: what it is, why (the failing reason, the ended reason), and what next. */
export function HealthText({ community, id }: { community: Community; id?: string }) {
  const { status, message, nextRetryAt } = community.health;
  const [label, style] = healthLabels[status];
  return (
    <p id={id} data-testid="community-health" className="text-sm text-slate-200">
      <span
        className={`mr-2 inline-block rounded px-1.5 py-0.5 text-xs font-semibold whitespace-nowrap ${style}`}
      >
        {label}
      </span>
      {status === 'granting' && (
        <span className="mr-1.5 inline-block align-middle text-sky-300">
          <Spinner />
        </span>
      )}
      {message}
      {status === 'failing' && nextRetryAt && (
        <>
          {' '}
          Next try: <time dateTime={nextRetryAt}>{formatDateTime(nextRetryAt)}</time>.
        </>
      )}
    </p>
  );
}

/** The server's picture, or its initials on a tile when it has none. */
function ServerIcon({ server }: { server: Community['server'] }) {
  const initials =
    (server?.name ?? '?')
      .split(/\s+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((w) => w[0]!.toUpperCase())
      .join('') || '?';
  return (
    <PictureOrLetters
      src={server?.iconUrl}
      letters={initials}
      size={48}
      box="h-12 w-12 rounded-xl"
      tile="bg-indigo-500/25 text-indigo-100"
    />
  );
}

/** The buttons each health offers the buyer. */
function CommunityActions({ community }: { community: Community }) {
  const dispatch = useAppDispatch();
  const reconnect = useAppSelector((s) => s.discord.reconnect);
  const busy = reconnect.status === 'loading' && reconnect.id === community._id;
  const again = () => void dispatch(reconnectCommunity(community._id));
  const title = community.product.title;

  switch (community.health.status) {
    // Connecting is one button for every community: the Discord account panel's (issue 27).
    case 'needs_join':
      return (
        <>
          {community.invite && (
            <a
              href={community.invite.url}
              target="_blank"
              rel="noopener noreferrer"
              data-testid="community-join"
              className={linkClass}
            >
              Join server
              <span className="sr-only"> {community.server?.name} (opens in a new tab)</span>
            </a>
          )}
          <Button
            type="button"
            variant="ghost"
            data-testid="community-joined"
            loading={busy}
            onClick={again}
          >
            I’ve joined
          </Button>
        </>
      );
    case 'active':
    case 'failing':
      return (
        <Button
          type="button"
          variant={community.health.status === 'failing' ? 'primary' : 'ghost'}
          data-testid="community-reconnect"
          loading={busy}
          onClick={again}
          aria-label={`${community.health.status === 'failing' ? 'Retry now' : 'Reconnect'}: ${title}`}
        >
          {community.health.status === 'failing' ? 'Retry now' : 'Reconnect'}
        </Button>
      );
    case 'ended':
      return community.product.slug ? (
        <Link to={productPath(community.product)} className={quietLink}>
          Buy {title} again
        </Link>
      ) : null;
    default:
      return null;
  }
}

/** One paid community: where, which roles, how its access stands, what to do, what happened. */
export function CommunityCard({ community }: { community: Community }) {
  const id = useId();
  const reconnect = useAppSelector((s) => s.discord.reconnect);
  const failed =
    reconnect.status === 'failure' && reconnect.id === community._id ? reconnect.error : null;
  const { server, roles, health } = community;
  return (
    <article
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-health`}
      data-testid="community-card"
      data-health={health.status}
      className="flex flex-col gap-3 rounded-xl border border-ink-700 bg-ink-900 p-4"
    >
      <header className="flex items-start gap-3">
        <ServerIcon server={server} />
        <div className="min-w-0">
          <h3 id={`${id}-title`} className="font-semibold text-white">
            {community.product.title}
          </h3>
          <p className="text-xs text-slate-400">
            {community.vendor.displayName}
            {server ? <> · Discord server “{server.name}”</> : <> · server not chosen yet</>}
          </p>
        </div>
      </header>
      <HealthText community={community} id={`${id}-health`} />
      {roles.length > 0 && (
        <p className="text-sm text-slate-300">
          <span className="text-slate-400">{roles.length === 1 ? 'Role' : 'Roles'}:</span>{' '}
          {roles.map((r, i) => (
            <span key={r.id}>
              {i > 0 && ', '}
              <span className="font-medium text-white">{r.name}</span>
            </span>
          ))}
        </p>
      )}
      {failed && <Alert>{failed.error}</Alert>}
      <div className="flex flex-wrap items-center gap-3">
        <CommunityActions community={community} />
        <Link to={`/orders/${encodeURIComponent(community.purchaseId)}`} className={quietLink}>
          View order<span className="sr-only"> for {community.product.title}</span>
        </Link>
      </div>
      {community.lastCheckedAt && (
        <p className="text-xs text-slate-400">
          Last checked{' '}
          <time dateTime={community.lastCheckedAt}>{formatDateTime(community.lastCheckedAt)}</time>
        </p>
      )}
      <EventHistory items={community.history} labels={eventLabels} />
    </article>
  );
}

/** The buyer's communities with their health; polls while access is on its way. */
export function CommunityList() {
  const dispatch = useAppDispatch();
  const { communities, waiting, timedOut } = useCommunities();
  const list = communities.data;
  if (!list && communities.status === 'failure')
    return (
      <Alert>
        {communities.error?.error ?? 'We could not load your communities.'}{' '}
        <button
          type="button"
          className="font-semibold underline"
          onClick={() => void dispatch(fetchCommunities())}
        >
          Try again
        </button>
      </Alert>
    );
  if (!list) return <Loading label="Loading your communities…" rows={2} />;
  if (!list.length) return null;
  return (
    <>
      <div role="status" aria-live="polite" className="text-sm text-slate-400 empty:hidden">
        {waiting ? 'Giving you access… this page updates by itself.' : ''}
        {timedOut
          ? 'This is taking longer than usual. We keep trying in the background; press Retry now on a card or reload later.'
          : ''}
      </div>
      <ul aria-label="Communities" className="flex flex-col gap-3">
        {list.map((c) => (
          <li key={c._id}>
            <CommunityCard community={c} />
          </li>
        ))}
      </ul>
    </>
  );
}

/** The linked Discord account: connect, or who it is with Unlink (after a confirm step). */
export function DiscordAccountPanel() {
  const dispatch = useAppDispatch();
  const toast = useToast();
  const { link, reload } = useDiscordLink();
  const unlink = useAppSelector((s) => s.discord.unlink);
  const { connect, leaving, error: connectError } = useConnectDiscord();
  const [confirming, setConfirming] = useState(false);
  const unlinkId = useId();
  const connectId = useId();

  const doUnlink = async () => {
    const result = await dispatch(unlinkDiscord());
    if (unlinkDiscord.fulfilled.match(result)) {
      setConfirming(false);
      toast('Discord unlinked. Your roles are being removed.');
      void dispatch(fetchCommunities());
    }
  };

  const account = link.data;
  return (
    <section
      aria-labelledby="discord-account-title"
      data-testid="discord-account"
      className="flex flex-col gap-3 rounded-2xl border border-ink-700 bg-ink-900 p-5"
    >
      <h2 id="discord-account-title" className="text-lg font-semibold text-white">
        Discord account
      </h2>
      {link.status === 'failure' && !account ? (
        <Alert>
          {link.error?.error ?? 'We could not load your Discord account.'}{' '}
          <button type="button" className="font-semibold underline" onClick={reload}>
            Try again
          </button>
        </Alert>
      ) : link.status !== 'success' && !account ? (
        <Loading label="Loading your Discord account…" size="line" />
      ) : !account ? (
        <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-sm text-slate-300">
            Connect your Discord account and we give you the roles of the communities you bought.
          </p>
          <Button
            id={connectId}
            type="button"
            data-testid="discord-connect"
            loading={leaving}
            onClick={() => connect()}
            className="shrink-0"
          >
            Connect Discord
          </Button>
        </div>
      ) : (
        <>
          <div className="flex flex-wrap items-center gap-3">
            <PictureOrLetters
              src={account.avatarUrl}
              letters={(account.globalName ?? account.username).slice(0, 1).toUpperCase()}
              size={40}
              box="h-10 w-10 rounded-full"
              tile="bg-indigo-500/25 text-indigo-100"
            />
            <div className="min-w-0 flex-1">
              <p className="font-semibold text-white" data-testid="discord-username">
                {account.globalName ?? account.username}
                {account.globalName && (
                  <span className="ml-1.5 text-sm font-normal text-slate-400">
                    @{account.username}
                  </span>
                )}
              </p>
              <p className="text-xs text-slate-400">
                Linked <time dateTime={account.linkedAt}>{formatDate(account.linkedAt)}</time>
              </p>
            </div>
            {!confirming && (
              <Button
                id={unlinkId}
                type="button"
                variant="ghost"
                data-testid="discord-unlink"
                onClick={() => setConfirming(true)}
              >
                Unlink
              </Button>
            )}
          </div>
          {!account.canJoinServers && (
            <p className="text-sm text-slate-400">
              You did not let Tradeshelf add you to servers, so each community shows its invite:
              join the server and press “I’ve joined”.
            </p>
          )}
          {confirming && (
            <ConfirmStep
              title={`Unlink ${account.username}?`}
              confirmLabel="Unlink and remove roles"
              cancelLabel="Keep it linked"
              testId="discord-unlink-confirm"
              busy={unlink.status === 'loading'}
              error={unlink.status === 'failure' ? (unlink.error?.error ?? null) : null}
              // Back to Unlink; after unlinking, to Connect Discord, which took its place.
              returnFocusTo={[unlinkId, connectId]}
              onConfirm={() => void doUnlink()}
              onCancel={() => setConfirming(false)}
            >
              <p>
                The roles we gave this Discord account are removed from every community server. Your
                purchases stay yours: connect Discord again and your access comes back.
              </p>
            </ConfirmStep>
          )}
        </>
      )}
      {connectError && <Alert>{connectError.error}</Alert>}
    </section>
  );
}

/** A purchase that gives Discord roles (a community, or a bundle with one). */
export const givesDiscordAccess = (p: { entitlements: ReadonlyArray<{ kind: string }> }) =>
  p.entitlements.some((e) => e.kind === 'discord_role');

/**
 * On an order of a community product: how its Discord access stands (read again while it is on its
 * way) and the way to the library, where the buyer connects, joins or retries.
 */
export function DiscordAccess({ purchaseId }: { purchaseId: string }) {
  const { communities } = useCommunities();
  const mine = (communities.data ?? []).filter((c) => c.purchaseId === purchaseId);
  return (
    <div
      data-testid="discord-access"
      className="flex flex-col gap-2 rounded-xl border border-indigo-500/30 bg-indigo-500/10 p-4 print:hidden"
    >
      <h3 className="font-semibold text-white">Discord access</h3>
      <div aria-live="polite" className="flex flex-col gap-1.5">
        {mine.map((c) => (
          <div key={c._id} data-testid="discord-access-health" data-health={c.health.status}>
            {mine.length > 1 && <p className="text-xs text-slate-400">{c.product.title}</p>}
            <HealthText community={c} />
          </div>
        ))}
      </div>
      {(mine.length === 0 || mine.some((c) => c.health.status !== 'ended')) && (
        <Link to="/library" data-testid="discord-access-link" className={`${linkClass} self-start`}>
          Get your Discord access
        </Link>
      )}
    </div>
  );
}
