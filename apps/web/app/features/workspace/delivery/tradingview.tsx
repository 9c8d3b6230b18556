import {
  TRADINGVIEW_SCRIPT_NAME_MAX,
  TRADINGVIEW_SCRIPT_URL_MAX,
  TRADINGVIEW_SCRIPTS_PER_PRODUCT_MAX,
  tradingViewMessages,
  tradingViewScriptUrlPattern,
  type TradingViewTaskStatus,
} from '@tradeshelf/contract/client';
import type {
  TradingViewTask,
  VendorTradingViewProduct,
  VendorTradingViewScript,
} from '@tradeshelf/contract';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { useToast } from '../../../components/toasts.tsx';
import { Alert, Button, Field, FormError } from '../../../components/ui.tsx';
import { formatDate, formatDateTime } from '../../../lib/format.ts';
import { useAction, useRead } from '../request.ts';
import {
  completeTradingViewTask,
  createTradingViewScript,
  fetchTradingViewProducts,
  fetchTradingViewScripts,
  fetchTradingViewTasks,
  type PageArg,
  type ProductScripts,
  setProductScripts,
  type TasksArg,
} from './api.ts';
import { taskTiming } from './overdue.ts';
import {
  CopyButton,
  focusRing,
  Loading,
  PageHeader,
  Panel,
  ReadError,
  useNow,
  usePaged,
  GrowingScreen,
} from '../screen-kit.tsx';

/** The script form's problems, in the contract's words (the server says the same). */
export function scriptProblems(input: { name: string; url: string }) {
  const fields: { name?: string; url?: string } = {};
  const name = input.name.trim();
  const url = input.url.trim();
  if (!name) fields.name = tradingViewMessages.scriptName;
  else if (name.length > TRADINGVIEW_SCRIPT_NAME_MAX)
    fields.name = `At most ${TRADINGVIEW_SCRIPT_NAME_MAX} characters.`;
  if (!url || url.length > TRADINGVIEW_SCRIPT_URL_MAX || !tradingViewScriptUrlPattern.test(url))
    fields.url = tradingViewMessages.scriptUrl;
  return fields;
}

const statusTabs: Array<{ value: TradingViewTaskStatus | 'all'; label: string }> = [
  { value: 'pending', label: 'To do' },
  { value: 'done', label: 'Done' },
  { value: 'cancelled', label: 'Cancelled' },
  { value: 'all', label: 'All' },
];

function TaskRow({
  task,
  now,
  onDone,
}: {
  task: TradingViewTask;
  now: number;
  onDone: (t: TradingViewTask) => void;
}) {
  const complete = useAction<{ id: string; note?: string | undefined }, TradingViewTask>(
    completeTradingViewTask,
  );
  const toast = useToast();
  const timing = taskTiming(task, now);
  const grant = task.kind === 'grant';
  return (
    <li
      className={`flex flex-col gap-3 rounded-xl border p-4 ${
        timing.overdue ? 'border-rose-500/60 bg-rose-500/10' : 'border-ink-700'
      }`}
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex flex-col gap-1">
          <p className="text-sm font-semibold text-white">
            {grant ? 'Add' : 'Remove'}{' '}
            <span className="font-mono text-brand-200">{task.username}</span>{' '}
            <CopyButton value={task.username} label={`Copy the username ${task.username}`} />
          </p>
          <p className="text-sm text-slate-300">
            {grant ? 'to' : 'from'} {task.scripts.map((s) => s.name).join(', ') || 'no scripts'} (
            {task.product.title})
          </p>
          <p className="text-xs text-slate-400">
            {task.reasonText} · {formatDateTime(task.createdAt)}
            {grant && task.expiresAt && ` · set access to end ${formatDate(task.expiresAt)}`}
            {grant && !task.expiresAt && ' · no expiry'}
          </p>
          {timing.text && (
            <p
              className={`text-xs font-semibold ${timing.overdue ? 'text-rose-300' : 'text-slate-300'}`}
            >
              {timing.overdue && <span aria-hidden>⚠ </span>}
              {timing.text}
            </p>
          )}
          {task.status !== 'pending' && (
            <p className="text-xs text-slate-400">
              {task.status === 'done'
                ? `Done ${task.completedAt ? formatDateTime(task.completedAt) : ''}`
                : 'Cancelled: no longer needed'}
              {task.note ? ` · ${task.note}` : ''}
            </p>
          )}
          <ul className="flex flex-wrap gap-2 text-xs">
            {task.scripts.map((s) => (
              <li key={s.id}>
                <a
                  href={s.url}
                  target="_blank"
                  rel="noreferrer noopener"
                  className={`text-brand-300 underline ${focusRing}`}
                >
                  Open “{s.name}” on TradingView
                </a>
              </li>
            ))}
          </ul>
        </div>
        {task.status === 'pending' && (
          <Button
            type="button"
            loading={complete.busy}
            onClick={async () => {
              const done = await complete.run({ id: task.id });
              if (done) {
                toast(`Marked done: ${grant ? 'added' : 'removed'} ${task.username}.`);
                onDone(done);
              }
            }}
          >
            Mark done<span className="sr-only"> for {task.username}</span>
          </Button>
        )}
      </div>
      {complete.error && <Alert>{complete.error.error}</Alert>}
    </li>
  );
}

function AccessQueue() {
  const [status, setStatus] = useState<TradingViewTaskStatus | 'all'>('pending');
  const tasks = usePaged<TasksArg, TradingViewTask>(fetchTradingViewTasks, { status });
  const now = useNow();
  const overdue = tasks.items.filter((t) => taskTiming(t, now).overdue).length;
  return (
    <Panel title="Access queue">
      <p className="text-sm text-slate-300">
        TradingView has no API for invite-only scripts: open each script’s page, use “Manage access”
        to add or remove the username, then mark the task done. Oldest first.
      </p>
      <div role="group" aria-label="Show tasks" className="flex flex-wrap gap-2">
        {statusTabs.map((tab) => (
          <button
            key={tab.value}
            type="button"
            aria-pressed={status === tab.value}
            onClick={() => setStatus(tab.value)}
            className={`rounded-lg px-3 py-1.5 text-sm font-medium ${focusRing} ${
              status === tab.value ? 'bg-ink-700 text-white' : 'text-slate-400 hover:bg-ink-800'
            }`}
          >
            {tab.label}
          </button>
        ))}
      </div>
      {status === 'pending' && overdue > 0 && (
        <Alert>
          {overdue} revocation{overdue === 1 ? ' is' : 's are'} overdue: buyers who lost access
          still have it on TradingView.
        </Alert>
      )}
      <GrowingScreen
        list={tasks}
        noun="tasks"
        loading="Loading the access queue…"
        empty={
          <p className="text-sm text-slate-300">
            {status === 'pending'
              ? 'Nothing to do: every buyer’s access is up to date.'
              : 'No tasks.'}
          </p>
        }
      >
        {(items) => (
          <ul className="flex flex-col gap-3">
            {items.map((t) => (
              <TaskRow key={t.id} task={t} now={now} onDone={tasks.replace} />
            ))}
          </ul>
        )}
      </GrowingScreen>
    </Panel>
  );
}

function ScriptForm({ onAdded }: { onAdded: (s: VendorTradingViewScript) => void }) {
  const [input, setInput] = useState({ name: '', url: '' });
  const [shown, setShown] = useState<{ name?: string; url?: string }>({});
  const create = useAction<{ name: string; url: string }, VendorTradingViewScript>(
    createTradingViewScript,
  );
  const toast = useToast();
  const server = create.error?.fields ?? {};
  return (
    <form
      noValidate
      className="flex flex-col gap-3"
      onSubmit={async (e) => {
        e.preventDefault();
        const problems = scriptProblems(input);
        setShown(problems);
        if (Object.keys(problems).length) return;
        const script = await create.run({ name: input.name.trim(), url: input.url.trim() });
        if (script) {
          toast(`Added “${script.name}”.`);
          setInput({ name: '', url: '' });
          onAdded(script);
        }
      }}
    >
      <div className="grid gap-3 sm:grid-cols-2">
        <Field
          label="Script name"
          value={input.name}
          maxLength={TRADINGVIEW_SCRIPT_NAME_MAX}
          onChange={(e) => setInput({ ...input, name: e.target.value })}
          error={shown.name ?? server.name}
        />
        <Field
          label="Script link"
          type="url"
          placeholder="https://www.tradingview.com/script/AbCd1234-My-Script/"
          value={input.url}
          onChange={(e) => setInput({ ...input, url: e.target.value })}
          error={shown.url ?? server.url}
        />
      </div>
      <FormError error={create.error} />
      <Button type="submit" className="self-start" loading={create.busy}>
        Add script
      </Button>
    </form>
  );
}

function ProductScripts({
  product,
  scripts,
  onSaved,
}: {
  product: VendorTradingViewProduct;
  scripts: VendorTradingViewScript[];
  onSaved: (p: VendorTradingViewProduct) => void;
}) {
  const [editing, setEditing] = useState(false);
  const [chosen, setChosen] = useState<string[]>(product.scripts.map((s) => s.id));
  const save = useAction<{ productId: string; scriptIds: string[] }, ProductScripts>(
    setProductScripts,
  );
  const toast = useToast();
  const id = useId();
  const removed = product.scripts.filter((s) => !chosen.includes(s.id));
  return (
    <li className="flex flex-col gap-2 rounded-xl border border-ink-700 p-4">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <p className="font-semibold text-white">
            {product.title}{' '}
            {!product.isActive && <span className="text-xs text-slate-400">(unpublished)</span>}
          </p>
          <p className="text-sm text-slate-300">
            {product.scripts.length
              ? `Delivers ${product.scripts.map((s) => s.name).join(', ')}`
              : 'Delivers no TradingView script'}
          </p>
        </div>
        {!editing && (
          <Button
            type="button"
            variant="ghost"
            onClick={() => {
              setChosen(product.scripts.map((s) => s.id));
              setEditing(true);
            }}
          >
            Choose scripts<span className="sr-only"> for {product.title}</span>
          </Button>
        )}
      </div>
      {editing && (
        <form
          className="flex flex-col gap-2"
          onSubmit={async (e) => {
            e.preventDefault();
            const saved = await save.run({ productId: product.id, scriptIds: chosen });
            if (saved) {
              toast(`Saved the scripts of “${product.title}”.`);
              onSaved({ ...product, scripts: saved.scripts });
              setEditing(false);
            }
          }}
        >
          <fieldset className="flex flex-col gap-1">
            <legend id={id} className="mb-1 text-sm font-medium text-slate-200">
              Scripts “{product.title}” delivers (at most {TRADINGVIEW_SCRIPTS_PER_PRODUCT_MAX})
            </legend>
            {scripts.map((s) => (
              <label key={s.id} className="flex items-center gap-2 text-sm text-slate-200">
                <input
                  type="checkbox"
                  checked={chosen.includes(s.id)}
                  onChange={(e) =>
                    setChosen(
                      e.target.checked ? [...chosen, s.id] : chosen.filter((x) => x !== s.id),
                    )
                  }
                />
                {s.name}
              </label>
            ))}
          </fieldset>
          {removed.length > 0 && (
            <Alert tone="info">
              Buyers who hold “{product.title}” will get revocation tasks for{' '}
              {removed.map((s) => s.name).join(', ')}.
            </Alert>
          )}
          {save.error && <Alert>{save.error.error}</Alert>}
          <div className="flex gap-2">
            <Button type="submit" loading={save.busy}>
              Save
            </Button>
            <Button
              type="button"
              variant="ghost"
              disabled={save.busy}
              onClick={() => {
                save.reset();
                setEditing(false);
              }}
            >
              Cancel
            </Button>
          </div>
        </form>
      )}
    </li>
  );
}

function Scripts() {
  const scripts = useRead<void, VendorTradingViewScript[]>(fetchTradingViewScripts, undefined);
  const products = usePaged<PageArg, VendorTradingViewProduct>(fetchTradingViewProducts, {});
  return (
    <Panel title="Scripts and products">
      {scripts.status === 'failure' ? (
        <ReadError error={scripts.error} onRetry={scripts.reload} />
      ) : !scripts.data ? (
        <Loading label="Loading your scripts…" />
      ) : scripts.data.length === 0 ? (
        <p className="text-sm text-slate-300">
          Add each invite-only script by its TradingView link, then choose the products that deliver
          it.
        </p>
      ) : (
        <ul className="flex flex-col gap-1 text-sm">
          {scripts.data.map((s) => (
            <li key={s.id} className="text-slate-200">
              <a href={s.url} target="_blank" rel="noreferrer noopener" className="underline">
                {s.name}
              </a>{' '}
              <span className="text-slate-400">
                {s.products.length
                  ? `· ${s.products.map((p) => p.title).join(', ')}`
                  : '· no product delivers it yet'}
              </span>
            </li>
          ))}
        </ul>
      )}
      <ScriptForm onAdded={(s) => scripts.set([...(scripts.data ?? []), s])} />
      <h3 className="mt-2 font-semibold text-white">Which products deliver which scripts</h3>
      <GrowingScreen
        list={products}
        noun="products"
        loading="Loading your products…"
        empty={
          <p className="text-sm text-slate-300">
            You have no products yet.{' '}
            <Link to="/vendor/products/new" className="text-brand-300 underline">
              Create one
            </Link>
            .
          </p>
        }
      >
        {(items) =>
          !scripts.data?.length ? (
            <p className="text-sm text-slate-300">Add a script first.</p>
          ) : (
            <ul className="flex flex-col gap-3">
              {items.map((p) => (
                <ProductScripts
                  key={p.id}
                  product={p}
                  scripts={scripts.data ?? []}
                  onSaved={(saved) => {
                    products.replace(saved);
                    void scripts.reload();
                  }}
                />
              ))}
            </ul>
          )
        }
      </GrowingScreen>
    </Panel>
  );
}

export function TradingViewSetup() {
  return (
    <div className="flex flex-col gap-6">
      <PageHeader title="TradingView">
        Invite-only scripts and the access queue: who to add or remove on TradingView.{' '}
        <Link to="/vendor/delivery" className="text-brand-300 underline">
          Back to delivery
        </Link>
      </PageHeader>
      <AccessQueue />
      <Scripts />
    </div>
  );
}
