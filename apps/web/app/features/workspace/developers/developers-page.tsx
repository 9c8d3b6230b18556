import {
  apiKeyScopes,
  apiKeyScopeWords,
  webhookEventTypes,
  webhookEventWords,
  type ApiKeyScope,
  type WebhookEventType,
} from '@tradeshelf/contract/client';
import type { ApiKey, WebhookDelivery, WebhookEndpoint } from '@tradeshelf/contract';
import { useState, type FormEvent } from 'react';
import { ConfirmStep } from '../../../components/confirm-step.tsx';
import { cell, ListTable } from '../../../components/list-table.tsx';
import { Screen } from '../../../components/screen.tsx';
import { useToast } from '../../../components/toasts.tsx';
import { TwoFactorCodeField } from '../../../components/two-factor-field.tsx';
import { Alert, Button, Card, Field, FormError } from '../../../components/ui.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { badgeClass, type Tone } from '../money-format.ts';
import { useAction, useRead } from '../request.ts';
import {
  createApiKey,
  createEndpoint,
  deleteEndpoint,
  fetchApiKeys,
  fetchDeliveries,
  fetchEndpoints,
  resendDelivery,
  revokeApiKey,
  sendTestEvent,
  updateEndpoint,
} from './api.ts';

/** A secret shown this once, with the words that say so (docs/product.md#api-keys-and-webhooks). */
function ShownOnce({
  label,
  secret,
  onDone,
}: {
  label: string;
  secret: string;
  onDone: () => void;
}) {
  return (
    <Alert tone="info">
      <div className="flex flex-col gap-2">
        <p>{label}</p>
        <code
          className="rounded bg-ink-950 p-2 font-mono text-sm break-all text-white"
          data-testid="shown-secret"
        >
          {secret}
        </code>
        <Button type="button" variant="ghost" className="self-start" onClick={onDone}>
          I have copied it
        </Button>
      </div>
    </Alert>
  );
}

function Checks<T extends string>({
  legend,
  options,
  words,
  chosen,
  onChange,
}: {
  legend: string;
  options: readonly T[];
  words: Record<T, string>;
  chosen: T[];
  onChange: (next: T[]) => void;
}) {
  return (
    <fieldset className="flex flex-col gap-1.5">
      <legend className="mb-1 text-sm font-medium text-slate-200">{legend}</legend>
      {options.map((o) => (
        <label key={o} className="flex items-center gap-2 text-sm text-slate-300">
          <input
            type="checkbox"
            checked={chosen.includes(o)}
            onChange={(e) =>
              onChange(e.target.checked ? [...chosen, o] : chosen.filter((x) => x !== o))
            }
          />
          <span className="font-mono text-xs text-slate-200">{o}</span> {words[o]}
        </label>
      ))}
    </fieldset>
  );
}

function ApiKeys() {
  const read = useRead(fetchApiKeys, undefined);
  const create = useAction(createApiKey);
  const revoke = useAction(revokeApiKey);
  const toast = useToast();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ApiKeyScope[]>(['sales:read']);
  const [code, setCode] = useState('');
  const [shown, setShown] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<string | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const made = await create.run({ name, scopes, ...(code ? { twoFactorCode: code } : {}) });
    if (!made) return;
    setShown(made.secret);
    setName('');
    setCode('');
    void read.reload();
  };
  const drop = async (id: string) => {
    const done = await revoke.run(id);
    setConfirm(null);
    if (done) {
      toast(`Key ${done.name} revoked.`);
      void read.reload();
    }
  };
  const keys = read.data ?? [];
  return (
    <section className="flex flex-col gap-4" aria-labelledby="api-keys-heading">
      <h2 id="api-keys-heading" className="text-xl font-bold text-white">
        API keys
      </h2>
      <p className="text-sm text-slate-300">
        Call the vendor API with <code>Authorization: Bearer</code> and a key instead of signing in.
        Each route of the{' '}
        <a className="underline" href="/docs">
          API reference
        </a>{' '}
        names the scope it needs.
      </p>
      {shown && (
        <ShownOnce
          label="Your new API key. Copy it now: it is not shown again."
          secret={shown}
          onDone={() => setShown(null)}
        />
      )}
      <Card title="New API key">
        <form className="flex flex-col gap-4" onSubmit={(e) => void submit(e)} noValidate>
          <Field
            label="Key name"
            name="keyName"
            value={name}
            onChange={(e) => setName(e.target.value)}
            error={create.error?.fields?.name}
          />
          <Checks
            legend="Scopes"
            options={apiKeyScopes}
            words={apiKeyScopeWords}
            chosen={scopes}
            onChange={setScopes}
          />
          <TwoFactorCodeField value={code} onChange={setCode} purpose="Creating an API key" />
          <FormError error={create.error} />
          <Button type="submit" className="self-start" loading={create.busy}>
            Create key
          </Button>
        </form>
      </Card>
      {revoke.error && <Alert>{revoke.error.error}</Alert>}
      <Screen
        read={read}
        onRetry={() => void read.reload()}
        loading="Loading API keys…"
        isEmpty={() => !keys.length}
        empty={<Alert tone="info">No API keys yet.</Alert>}
      >
        {() => (
          <ListTable
            columns={[
              { label: 'Name' },
              { label: 'Key' },
              { label: 'Scopes' },
              { label: 'Last used' },
              { label: 'Actions', hidden: true },
            ]}
            testId="api-keys"
          >
            {keys.map((k: ApiKey) => (
              <tr key={k.id} className="border-t border-ink-700">
                <td className={cell}>{k.name}</td>
                <td className={`${cell} font-mono text-xs`}>{k.preview}</td>
                <td className={`${cell} text-xs`}>{k.scopes.join(', ')}</td>
                <td className={cell}>
                  {k.revokedAt
                    ? `Revoked ${formatDateTime(k.revokedAt)}`
                    : k.lastUsedAt
                      ? formatDateTime(k.lastUsedAt)
                      : 'Never'}
                </td>
                <td className={cell}>
                  {k.revokedAt ? null : confirm === k.id ? (
                    <ConfirmStep
                      compact
                      title={`Revoke ${k.name}?`}
                      confirmLabel="Revoke"
                      cancelLabel="Keep it"
                      busy={revoke.busy}
                      error={null}
                      returnFocusTo={`key-revoke-${k.id}`}
                      onConfirm={() => void drop(k.id)}
                      onCancel={() => setConfirm(null)}
                    >
                      <p>Calls with it are refused from now on.</p>
                    </ConfirmStep>
                  ) : (
                    <Button
                      type="button"
                      variant="ghost"
                      id={`key-revoke-${k.id}`}
                      onClick={() => setConfirm(k.id)}
                      aria-label={`Revoke ${k.name}`}
                    >
                      Revoke
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </ListTable>
        )}
      </Screen>
    </section>
  );
}

const deliveryBadge: Record<WebhookDelivery['status'], { label: string; tone: Tone }> = {
  delivered: { label: 'Delivered', tone: 'good' },
  pending: { label: 'Pending', tone: 'warn' },
  failed: { label: 'Failed', tone: 'bad' },
};

function Deliveries({ endpoint }: { endpoint: WebhookEndpoint }) {
  const read = useRead(fetchDeliveries, { id: endpoint.id });
  const resend = useAction(resendDelivery);
  const toast = useToast();
  const list = read.data?.deliveries ?? [];
  const again = async (deliveryId: string) => {
    if (await resend.run({ id: endpoint.id, deliveryId })) {
      toast('Queued again, with the same webhook-id.');
      void read.reload();
    }
  };
  return (
    <div className="flex flex-col gap-2">
      <div className="flex items-center justify-between">
        <h4 className="text-sm font-semibold text-slate-200">Delivery log</h4>
        <Button type="button" variant="ghost" onClick={() => void read.reload()}>
          Refresh
        </Button>
      </div>
      {resend.error && <Alert>{resend.error.error}</Alert>}
      <Screen
        read={read}
        onRetry={() => void read.reload()}
        loading="Loading deliveries…"
        isEmpty={() => !list.length}
        empty={<p className="text-sm text-slate-400">Nothing sent yet.</p>}
      >
        {() => (
          <ListTable
            columns={[
              { label: 'Event' },
              { label: 'Status' },
              { label: 'Response', align: 'right' },
              { label: 'Attempts', align: 'right' },
              { label: 'Time' },
              { label: 'Actions', hidden: true },
            ]}
            testId={`deliveries-${endpoint.id}`}
          >
            {list.map((d) => (
              <tr key={d.id} className="border-t border-ink-700" data-webhook-id={d.id}>
                <td className={`${cell} font-mono text-xs`}>{d.type}</td>
                <td className={cell}>
                  <span className={badgeClass(deliveryBadge[d.status].tone)}>
                    {deliveryBadge[d.status].label}
                  </span>
                  {d.lastError && <p className="text-xs text-slate-400">{d.lastError}</p>}
                </td>
                <td className={`${cell} text-right`}>{d.responseStatus ?? '—'}</td>
                <td className={`${cell} text-right`}>{d.attempts}</td>
                <td className={cell}>{formatDateTime(d.lastAttemptAt ?? d.createdAt)}</td>
                <td className={cell}>
                  <Button
                    type="button"
                    variant="ghost"
                    onClick={() => void again(d.id)}
                    aria-label={`Resend ${d.type} ${d.id}`}
                  >
                    Resend
                  </Button>
                </td>
              </tr>
            ))}
          </ListTable>
        )}
      </Screen>
    </div>
  );
}

function EndpointItem({
  endpoint,
  onChanged,
}: {
  endpoint: WebhookEndpoint;
  onChanged: () => void;
}) {
  const update = useAction(updateEndpoint);
  const remove = useAction(deleteEndpoint);
  const test = useAction(sendTestEvent);
  const toast = useToast();
  const [open, setOpen] = useState(false);
  const [confirm, setConfirm] = useState(false);
  const status: { label: string; tone: Tone } = endpoint.enabled
    ? { label: 'On', tone: 'good' }
    : endpoint.disabledReason === 'failing'
      ? { label: 'Off: kept failing', tone: 'bad' }
      : { label: 'Off', tone: 'muted' };
  return (
    <li className="flex flex-col gap-3 rounded-2xl border border-ink-700 bg-ink-900 p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="flex flex-col gap-1">
          <div className="flex flex-wrap items-center gap-2">
            <span className="font-mono text-sm break-all text-white">{endpoint.url}</span>
            <span className={badgeClass(status.tone)}>{status.label}</span>
          </div>
          {endpoint.description && <p className="text-sm text-slate-300">{endpoint.description}</p>}
          <p className="text-xs text-slate-400">{endpoint.eventTypes.join(', ')}</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button
            type="button"
            variant="ghost"
            loading={test.busy}
            onClick={() =>
              void test.run(endpoint.id).then((d) => {
                if (d) toast('Test event queued.');
              })
            }
          >
            Send test event
          </Button>
          <Button
            type="button"
            variant="ghost"
            loading={update.busy}
            onClick={() =>
              void update
                .run({ id: endpoint.id, body: { enabled: !endpoint.enabled } })
                .then((d) => d && onChanged())
            }
          >
            {endpoint.enabled ? 'Turn off' : 'Turn on'}
          </Button>
          <Button type="button" variant="ghost" aria-expanded={open} onClick={() => setOpen(!open)}>
            {open ? 'Hide deliveries' : 'Deliveries'}
          </Button>
          {confirm ? (
            <ConfirmStep
              compact
              title="Delete this endpoint?"
              confirmLabel="Delete"
              cancelLabel="Keep it"
              busy={remove.busy}
              error={remove.error?.error ?? null}
              returnFocusTo={`endpoint-delete-${endpoint.id}`}
              onConfirm={() =>
                void remove.run(endpoint.id).then((d) => {
                  setConfirm(false);
                  if (d) onChanged();
                })
              }
              onCancel={() => setConfirm(false)}
            />
          ) : (
            <Button
              type="button"
              variant="ghost"
              id={`endpoint-delete-${endpoint.id}`}
              onClick={() => setConfirm(true)}
            >
              Delete
            </Button>
          )}
        </div>
      </div>
      {(update.error ?? test.error) && <Alert>{(update.error ?? test.error)!.error}</Alert>}
      {open && <Deliveries endpoint={endpoint} />}
    </li>
  );
}

function Webhooks() {
  const read = useRead(fetchEndpoints, undefined);
  const create = useAction(createEndpoint);
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<WebhookEventType[]>(['sale.completed']);
  const [shown, setShown] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const made = await create.run({ url, description, eventTypes: events });
    if (!made) return;
    setShown(made.secret);
    setUrl('');
    setDescription('');
    void read.reload();
  };
  const endpoints = read.data ?? [];
  return (
    <section className="flex flex-col gap-4" aria-labelledby="webhooks-heading">
      <h2 id="webhooks-heading" className="text-xl font-bold text-white">
        Webhooks
      </h2>
      <p className="text-sm text-slate-300">
        We POST each event you choose to your URL, signed the Standard Webhooks way (
        <code>webhook-id</code>, <code>webhook-timestamp</code>, <code>webhook-signature</code>).
        Failed deliveries are retried for a day; an endpoint that fails 15 times in a row is turned
        off and you get an e-mail.
      </p>
      {shown && (
        <ShownOnce
          label="The endpoint's signing secret. Verify every delivery with it."
          secret={shown}
          onDone={() => setShown(null)}
        />
      )}
      <Card title="New endpoint">
        <form className="flex flex-col gap-4" onSubmit={(e) => void submit(e)} noValidate>
          <Field
            label="Endpoint URL"
            name="url"
            type="url"
            placeholder="https://example.com/webhooks/tradeshelf"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            error={create.error?.fields?.url}
          />
          <Field
            label="Description (optional)"
            name="description"
            value={description}
            onChange={(e) => setDescription(e.target.value)}
            error={create.error?.fields?.description}
          />
          <Checks
            legend="Events"
            options={webhookEventTypes}
            words={webhookEventWords}
            chosen={events}
            onChange={setEvents}
          />
          <FormError error={create.error} />
          <Button type="submit" className="self-start" loading={create.busy}>
            Add endpoint
          </Button>
        </form>
      </Card>
      <Screen
        read={read}
        onRetry={() => void read.reload()}
        loading="Loading webhook endpoints…"
        isEmpty={() => !endpoints.length}
        empty={<Alert tone="info">No webhook endpoints yet.</Alert>}
      >
        {() => (
          <ul className="flex flex-col gap-3">
            {endpoints.map((e) => (
              <EndpointItem key={e.id} endpoint={e} onChanged={() => void read.reload()} />
            ))}
          </ul>
        )}
      </Screen>
    </section>
  );
}

/** The workspace's Developers screen (issue 33, ADR 057): API keys and webhooks. */
export function DevelopersPage() {
  return (
    <div className="flex flex-col gap-10">
      <h1 className="text-2xl font-bold text-white">API keys &amp; webhooks</h1>
      <ApiKeys />
      <Webhooks />
    </div>
  );
}
