import { alertSides, type AlertSide } from '@tradeshelf/contract/client';
import type { AlertFeed, VendorAlert } from '@tradeshelf/contract';
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { cell, ListTable } from '../../../components/list-table.tsx';
import { imageFileProblem, UploadControl } from '../../../components/upload-control.tsx';
import { Screen } from '../../../components/screen.tsx';
import { useToast } from '../../../components/toasts.tsx';
import { Alert, Button, Field, FormError } from '../../../components/ui.tsx';
import { TextAreaField } from '../../../components/textarea-field.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { useAction, useRead } from '../request.ts';
import { CopyButton, PageHeader, Panel } from '../screen-kit.tsx';
import {
  addAlertImage,
  fetchAlertDiscord,
  fetchAlertFeeds,
  fetchVendorAlerts,
  publishAlert,
  removeAlertDiscord,
  rotateAlertHook,
  setAlertDiscord,
} from './api.ts';
import { SelectField } from '../../../components/select-field.tsx';

// The vendor's alert feeds (issue 31, ADR 059): the TradingView webhook URL, a form to send an
// alert by hand, and each alert's fan-out per channel (docs/product.md#alerts).

const sideWords: Record<AlertSide, string> = { buy: 'Buy', sell: 'Sell', close: 'Close' };

function PublishForm({ feed, onSent }: { feed: AlertFeed; onSent: () => void }) {
  const publish = useAction(publishAlert);
  const toast = useToast();
  const [symbol, setSymbol] = useState('');
  const [side, setSide] = useState<AlertSide | ''>('');
  const [price, setPrice] = useState('');
  const [text, setText] = useState('');
  const [image, setImage] = useState<{ imageId: string; imageUrl: string } | null>(null);
  const upload = useAction(addAlertImage);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const done = await publish.run({
      productId: feed.productId,
      body: { symbol, side: side || null, price, text, ...(image ? { image: image.imageId } : {}) },
    });
    if (!done) return;
    toast(`Alert sent to ${done.recipients} subscriber${done.recipients === 1 ? '' : 's'}.`);
    setSymbol('');
    setPrice('');
    setText('');
    setSide('');
    setImage(null);
    onSent();
  };
  const fields = publish.error?.fields;
  return (
    <form className="flex flex-col gap-4" onSubmit={(e) => void submit(e)} noValidate>
      <div className="grid gap-4 sm:grid-cols-3">
        <Field
          label="Symbol"
          name="symbol"
          value={symbol}
          placeholder="NASDAQ:AAPL"
          onChange={(e) => setSymbol(e.target.value)}
          error={fields?.symbol}
        />
        <SelectField
          label="Side"
          value={side}
          options={alertSides.map((s) => [s, sideWords[s]] as const)}
          onChange={setSide}
          empty="None"
          error={fields?.side}
        />
        <Field
          label="Price"
          name="price"
          inputMode="decimal"
          value={price}
          onChange={(e) => setPrice(e.target.value)}
          error={fields?.price}
        />
      </div>
      <TextAreaField label="Text" rows={3} value={text} onChange={setText} error={fields?.text} />
      {/* One above the other: beside the picture the file picker would not fit 320 px. */}
      <div className="flex min-w-0 flex-col gap-3">
        {image && (
          <img
            src={image.imageUrl}
            alt="Chart picture for this alert"
            className="h-24 w-40 rounded-lg border border-ink-700 object-cover"
          />
        )}
        <UploadControl
          label={image ? 'Replace the chart picture' : 'Chart picture (optional)'}
          accept="image/png,image/jpeg,image/webp"
          hint="PNG, JPEG or WebP, up to 2 MB; it goes out with this alert on every channel."
          check={imageFileProblem}
          upload={async (run) => {
            const added = await upload.run({ productId: feed.productId, ...run });
            if (added) setImage(added);
            return Boolean(added);
          }}
          error={upload.error}
        />
      </div>
      {fields?.image && <p className="text-sm text-rose-400">{fields.image}</p>}
      <FormError error={publish.error} shows={['symbol', 'price', 'text', 'image']} />
      <Button type="submit" className="self-start" loading={publish.busy}>
        Send alert
      </Button>
    </form>
  );
}

/**
 * The feed's Discord channel (ADR 059): create one only the product's roles read, or take an
 * existing one; who can read it and what stops posting, in Discord's words with the fix.
 */
function DiscordChannel({ productId }: { productId: string }) {
  const read = useRead(fetchAlertDiscord, productId);
  const save = useAction(setAlertDiscord);
  const remove = useAction(removeAlertDiscord);
  const channelField = useId();
  const [channelId, setChannelId] = useState('');
  const use = async (id: string | null) => {
    const next = await save.run({ productId, channelId: id });
    if (next) {
      read.set(next);
      setChannelId('');
    }
  };
  const stop = async () => {
    const next = await remove.run(productId);
    if (next) read.set(next);
  };
  return (
    <section className="flex flex-col gap-2" aria-labelledby={`${channelField}-title`}>
      <h3 id={`${channelField}-title`} className="text-sm font-semibold text-white">
        Discord channel
      </h3>
      <Screen read={read} onRetry={() => void read.reload()} loading="Checking Discord…">
        {(d) =>
          !d.bound ? (
            <Alert tone="info">
              Post each alert to a channel of your Discord server that only subscribers can read:
              first bind this product to a role in{' '}
              <Link to="/vendor/delivery/discord" className="underline underline-offset-2">
                Delivery → Discord
              </Link>
              . Buyers get that role while they hold the product.
            </Alert>
          ) : (
            <div className="flex flex-col gap-3 text-sm text-slate-300">
              {d.channel ? (
                <p data-testid="alert-discord-channel">
                  Each alert is posted to{' '}
                  <a href={d.channel.url} className="font-semibold text-white underline">
                    #{d.channel.name}
                  </a>{' '}
                  in {d.server?.name}. Readable by:{' '}
                  {d.everyone ? 'everyone in the server' : d.readers.join(', ') || 'nobody yet'}.
                </p>
              ) : (
                <p>
                  Alerts can go to a channel of {d.server?.name} that only{' '}
                  {d.roles.map((r) => r.name).join(', ')} can read.
                </p>
              )}
              {d.problems.length > 0 && (
                <Alert>
                  <ul className="list-disc pl-4">
                    {d.problems.map((p) => (
                      <li key={p}>{p}</li>
                    ))}
                  </ul>
                </Alert>
              )}
              <div className="flex flex-wrap gap-2">
                {!d.channel && (
                  <Button type="button" loading={save.busy} onClick={() => void use(null)}>
                    Create #{d.suggestedName}
                  </Button>
                )}
                {d.channel && (
                  <Button type="button" variant="ghost" onClick={() => void read.reload()}>
                    Check again
                  </Button>
                )}
                {d.channel && (
                  <Button
                    type="button"
                    variant="ghost"
                    loading={remove.busy}
                    onClick={() => void stop()}
                  >
                    Stop posting
                  </Button>
                )}
              </div>
              <form
                className="flex flex-wrap items-end gap-2"
                onSubmit={(e) => {
                  e.preventDefault();
                  void use(channelId.trim());
                }}
                noValidate
              >
                <Field
                  label={
                    d.channel
                      ? 'Use another channel (its id)'
                      : 'Or use an existing channel (its id)'
                  }
                  name="channelId"
                  inputMode="numeric"
                  value={channelId}
                  onChange={(e) => setChannelId(e.target.value)}
                  error={save.error?.fields?.channelId}
                />
                <Button
                  type="submit"
                  variant="ghost"
                  loading={save.busy}
                  disabled={!channelId.trim()}
                >
                  Use channel
                </Button>
              </form>
              <FormError error={save.error ?? remove.error} shows={['channelId']} />
            </div>
          )
        }
      </Screen>
    </section>
  );
}

function FanOut({ alert }: { alert: VendorAlert }) {
  return (
    <ul className="flex flex-col gap-0.5 text-xs">
      {alert.channels
        .filter((c) => c.queued + c.delivered + c.failed > 0)
        .map((c) => (
          <li key={c.channel}>
            <span className="font-semibold text-slate-200">{c.channel}</span>: {c.delivered}{' '}
            delivered
            {c.queued ? `, ${c.queued} queued` : ''}
            {c.failed ? `, ${c.failed} failed` : ''}
          </li>
        ))}
      {alert.failures.map((f) => (
        <li key={`${f.channel}:${f.reason}`} className="text-rose-300">
          {f.channel}: {f.reason} ({f.count})
        </li>
      ))}
    </ul>
  );
}

function FeedPanel({ feed, onRotated }: { feed: AlertFeed; onRotated: (f: AlertFeed) => void }) {
  const alerts = useRead(fetchVendorAlerts, { productId: feed.productId });
  const rotate = useAction(rotateAlertHook);
  const list = alerts.data?.alerts ?? [];
  return (
    <Panel title={feed.title}>
      <p className="text-sm text-slate-300">
        {feed.subscribers} current subscriber{feed.subscribers === 1 ? '' : 's'}
        {feed.isActive ? '' : ' · unpublished'}
      </p>
      <div className="flex flex-col gap-2">
        <h3 className="text-sm font-semibold text-white">TradingView webhook URL</h3>
        <p className="text-sm text-slate-300">
          Paste it into a TradingView alert&apos;s &quot;Webhook URL&quot;. Its message is sent as
          the alert: plain text, or JSON with <code>symbol</code>, <code>side</code>,{' '}
          <code>price</code>, <code>text</code> and <code>id</code>.
        </p>
        <code
          className="rounded bg-ink-950 p-2 font-mono text-xs break-all text-white"
          data-testid="alert-hook-url"
        >
          {feed.webhookUrl}
        </code>
        <div className="flex flex-wrap gap-2">
          <CopyButton value={feed.webhookUrl} label="Copy URL" />
          <Button
            type="button"
            variant="ghost"
            loading={rotate.busy}
            onClick={() => void rotate.run(feed.productId).then((next) => next && onRotated(next))}
          >
            New URL
          </Button>
        </div>
      </div>
      <DiscordChannel productId={feed.productId} />
      <PublishForm feed={feed} onSent={() => void alerts.reload()} />
      <Screen
        read={alerts}
        onRetry={() => void alerts.reload()}
        loading="Loading alerts…"
        isEmpty={() => !list.length}
        empty={<Alert tone="info">No alerts sent yet.</Alert>}
      >
        {() => (
          <ListTable
            columns={[{ label: 'Sent' }, { label: 'Alert' }, { label: 'Delivery' }]}
            testId="vendor-alerts"
          >
            {list.map((a) => (
              <tr key={a.id} className="border-t border-ink-700 align-top">
                <td className={cell}>
                  {formatDateTime(a.createdAt)}
                  <span className="block text-xs text-slate-400">from {a.source}</span>
                </td>
                <td className={cell}>
                  <span className="font-semibold text-white">
                    {[a.side?.toUpperCase(), a.symbol, a.price ? `@ ${a.price}` : null]
                      .filter(Boolean)
                      .join(' ')}
                  </span>
                  {a.text && <span className="block text-sm text-slate-300">{a.text}</span>}
                </td>
                <td className={cell}>
                  <span className="block text-xs text-slate-400">
                    {a.recipients} recipient{a.recipients === 1 ? '' : 's'}
                  </span>
                  <FanOut alert={a} />
                </td>
              </tr>
            ))}
          </ListTable>
        )}
      </Screen>
    </Panel>
  );
}

export function AlertsPage() {
  const read = useRead(fetchAlertFeeds, undefined);
  const feeds = read.data ?? [];
  return (
    <div className="flex flex-col gap-6">
      <PageHeader title="Alerts">
        Send alerts to everyone who holds one of your alert products, from here, from TradingView or
        with an API key (scope alerts:write).
      </PageHeader>
      <Screen
        read={read}
        onRetry={() => void read.reload()}
        loading="Loading your alert products…"
        isEmpty={() => !feeds.length}
        empty={
          <Alert tone="info">You have no alert products yet. Create one of kind Alerts.</Alert>
        }
      >
        {() =>
          feeds.map((f) => (
            <FeedPanel
              key={f.productId}
              feed={f}
              onRotated={(next) =>
                read.set(feeds.map((x) => (x.productId === next.productId ? next : x)))
              }
            />
          ))
        }
      </Screen>
    </div>
  );
}
