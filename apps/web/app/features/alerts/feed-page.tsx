import type { Alert as AlertRow, AlertChannels, ApiError, BuyerAlert } from '@tradeshelf/contract';
import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Loading, ReadError } from '../../components/screen.tsx';
import { Alert, Button, Field, FormError } from '../../components/ui.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { useAppDispatch } from '../../lib/hooks.ts';
import { FALLBACK_ERROR } from '../../lib/request-state.ts';
import { fetchAlertFeed, retryAlertWebhook, saveAlertChannels, type AlertFeedPage } from './api.ts';
import { useLiveAlerts } from './live.ts';

// One alert feed the buyer holds (issue 31, ADR 059): its alerts, newest first, arriving live,
// where each went, and the channels they choose (docs/product.md#alerts).

const headline = (a: AlertRow) =>
  [a.side?.toUpperCase(), a.symbol, a.price ? `@ ${a.price}` : null].filter(Boolean).join(' ');

const statusTone = {
  delivered: 'text-emerald-300',
  queued: 'text-amber-300',
  failed: 'text-rose-300',
};

function AlertItem({ alert, live }: { alert: BuyerAlert; live: boolean }) {
  return (
    <li
      className="flex flex-col gap-1 rounded-xl border border-ink-700 bg-ink-900 p-4"
      data-testid="alert-item"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p className="font-semibold text-white">{headline(alert) || 'Alert'}</p>
        <time className="text-xs text-slate-400" dateTime={alert.createdAt}>
          {formatDateTime(alert.createdAt)}
          {live && <span className="ml-2 text-emerald-300">new</span>}
        </time>
      </div>
      {alert.text && <p className="text-sm text-slate-300">{alert.text}</p>}
      {alert.imageUrl && (
        <a href={alert.imageUrl} target="_blank" rel="noreferrer" className="self-start">
          <img
            src={alert.imageUrl}
            alt={`Chart for ${headline(alert) || 'this alert'}`}
            loading="lazy"
            className="max-h-64 rounded-lg border border-ink-700"
          />
        </a>
      )}
      {alert.deliveries.length > 0 && (
        <ul className="flex flex-wrap gap-x-4 text-xs" aria-label="Where it went">
          {alert.deliveries.map((d) => (
            <li key={d.channel} className={statusTone[d.status]}>
              {d.channel}: {d.status}
              {d.reason ? ` (${d.reason})` : ''}
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}

function ChannelsForm({
  productId,
  channels,
  onSaved,
}: {
  productId: string;
  channels: AlertChannels;
  onSaved: (c: AlertChannels) => void;
}) {
  const dispatch = useAppDispatch();
  const [web, setWeb] = useState(channels.web);
  const [email, setEmail] = useState(channels.email);
  const [url, setUrl] = useState(channels.webhook?.url ?? '');
  const [discord, setDiscord] = useState(channels.discord?.on ?? false);
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const save = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setNote(null);
    const done = await dispatch(
      saveAlertChannels({
        productId,
        body: {
          web,
          email,
          webhookUrl: url.trim() || null,
          ...(channels.discord ? { discord } : {}),
        },
      }),
    );
    setBusy(false);
    if (saveAlertChannels.fulfilled.match(done)) {
      setError(null);
      setNote('Saved.');
      onSaved(done.payload);
    } else setError(done.payload ?? FALLBACK_ERROR);
  };
  const retry = async () => {
    setBusy(true);
    const done = await dispatch(retryAlertWebhook(productId));
    setBusy(false);
    if (retryAlertWebhook.fulfilled.match(done)) {
      setNote(`Webhook resumed; ${done.payload.resent} failed alert(s) sent again.`);
      onSaved(done.payload.channels);
    } else setError(done.payload ?? FALLBACK_ERROR);
  };
  return (
    <form
      className="flex flex-col gap-4 rounded-2xl border border-ink-700 bg-ink-900 p-5"
      onSubmit={(e) => void save(e)}
      noValidate
      aria-labelledby="alert-channels"
    >
      <h2 id="alert-channels" className="text-lg font-semibold text-white">
        How alerts reach you
      </h2>
      <label className="flex items-center gap-2 text-sm text-slate-200">
        <input type="checkbox" checked={web} onChange={(e) => setWeb(e.target.checked)} />
        Live on this page
      </label>
      <label className="flex items-center gap-2 text-sm text-slate-200">
        <input type="checkbox" checked={email} onChange={(e) => setEmail(e.target.checked)} />
        By e-mail (alerts arriving within a minute come as one e-mail)
      </label>
      {channels.discord && (
        <div className="flex flex-col gap-1">
          <label className="flex items-center gap-2 text-sm text-slate-200">
            <input
              type="checkbox"
              checked={discord}
              onChange={(e) => setDiscord(e.target.checked)}
            />
            In #{channels.discord.channelName} on {channels.discord.serverName}&apos;s Discord
          </label>
          <p
            className={`pl-6 text-sm ${channels.discord.readable ? 'text-emerald-300' : 'text-amber-300'}`}
            data-testid="alert-discord-note"
          >
            {channels.discord.note}{' '}
            {channels.discord.readable ? (
              <a href={channels.discord.url} className="underline underline-offset-2">
                Open the channel
              </a>
            ) : (
              <Link to="/library" className="underline underline-offset-2">
                Your library
              </Link>
            )}
          </p>
        </div>
      )}
      <Field
        label="Webhook URL (optional)"
        name="webhookUrl"
        type="url"
        value={url}
        placeholder="https://example.com/tradeshelf-alerts"
        onChange={(e) => setUrl(e.target.value)}
        error={error?.fields?.webhookUrl}
        hint="Each alert is POSTed as JSON, signed with the Standard Webhooks scheme."
      />
      {channels.webhook && (
        <div className="flex flex-col gap-2 text-sm text-slate-300">
          <p>
            Signing secret:{' '}
            <code
              className="font-mono text-xs break-all text-white"
              data-testid="alert-webhook-secret"
            >
              {channels.webhook.secret}
            </code>
          </p>
          {channels.webhook.paused && (
            <Alert>
              Your webhook is paused after {channels.webhook.consecutiveFailures} failed deliveries
              in a row. Fix the endpoint, then retry.
            </Alert>
          )}
          {channels.webhook.paused && (
            <Button
              type="button"
              variant="ghost"
              className="self-start"
              onClick={() => void retry()}
            >
              Retry webhook
            </Button>
          )}
        </div>
      )}
      {error && !error.fields?.webhookUrl && <FormError error={error} />}
      {note && (
        <p className="text-sm text-emerald-300" role="status">
          {note}
        </p>
      )}
      <Button type="submit" className="self-start" loading={busy}>
        Save channels
      </Button>
    </form>
  );
}

export function AlertFeedPage({ productId }: { productId: string }) {
  const dispatch = useAppDispatch();
  const [page, setPage] = useState<AlertFeedPage | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [liveIds, setLiveIds] = useState<string[]>([]);
  const [more, setMore] = useState(false);
  const [reads, setReads] = useState(0);
  useEffect(() => {
    let current = true;
    void dispatch(fetchAlertFeed({ productId })).then((got) => {
      if (!current) return;
      if (fetchAlertFeed.fulfilled.match(got)) {
        setError(null);
        setPage(got.payload);
      } else setError(got.payload ?? FALLBACK_ERROR);
    });
    return () => {
      current = false;
    };
  }, [dispatch, productId, reads]);
  // Only a feed the buyer holds, with live on, keeps a stream open.
  useLiveAlerts(Boolean(page?.channels.web), (alert) => {
    if (alert.productId !== productId) return;
    setPage((p) =>
      p && !p.alerts.some((a) => a.id === alert.id)
        ? { ...p, alerts: [{ ...alert, deliveries: [] }, ...p.alerts] }
        : p,
    );
    setLiveIds((ids) => [...ids, alert.id]);
  });
  const loadMore = async () => {
    if (!page?.nextCursor) return;
    setMore(true);
    const got = await dispatch(fetchAlertFeed({ productId, cursor: page.nextCursor }));
    setMore(false);
    if (fetchAlertFeed.fulfilled.match(got))
      setPage({
        ...page,
        alerts: [...page.alerts, ...got.payload.alerts],
        nextCursor: got.payload.nextCursor,
      });
  };
  if (error && !page) return <ReadError error={error} onRetry={() => setReads((n) => n + 1)} />;
  if (!page) return <Loading label="Loading alerts…" size="page" rows={3} />;
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-6">
      <div className="flex flex-col gap-1">
        <p className="text-sm">
          <Link to="/library" className="text-brand-400 underline underline-offset-2">
            Your library
          </Link>
        </p>
        <h1 className="text-2xl font-bold text-white">{page.feed.title}</h1>
        <p className="text-sm text-slate-400">
          Alerts from {page.feed.vendorName}. New ones appear here as they are sent
          {page.channels.web ? '' : ' (live is off: reload to see them)'}.
        </p>
      </div>
      <ChannelsForm
        productId={productId}
        channels={page.channels}
        onSaved={(channels) => setPage({ ...page, channels })}
      />
      <section aria-labelledby="alert-history" className="flex flex-col gap-3">
        <h2 id="alert-history" className="text-lg font-semibold text-white">
          Alerts
        </h2>
        {page.alerts.length ? (
          <ul className="flex flex-col gap-3" data-testid="alert-list" aria-live="polite">
            {page.alerts.map((a) => (
              <AlertItem key={a.id} alert={a} live={liveIds.includes(a.id)} />
            ))}
          </ul>
        ) : (
          <Alert tone="info">No alerts yet. They appear here as the vendor sends them.</Alert>
        )}
        {page.nextCursor && (
          <Button
            type="button"
            variant="ghost"
            className="self-center"
            loading={more}
            onClick={() => void loadMore()}
          >
            Load older alerts
          </Button>
        )}
      </section>
    </div>
  );
}
