import type {
  TradingViewTask,
  VendorCommunityProduct,
  VendorDiscordServer,
  VendorTradingViewScript,
} from '@tradeshelf/contract';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useRead } from '../request.ts';
import {
  fetchCommunityProducts,
  fetchDiscordServers,
  fetchTradingViewScripts,
  fetchTradingViewTasks,
  type Page,
  type PageArg,
  type TasksArg,
} from './api.ts';
import { queueSummary } from './overdue.ts';
import { discordSummary } from './roles.ts';
import { focusRing, PageHeader, useNow } from '../screen-kit.tsx';

/** Read enough of each list for the hub's counts; "+" says there is more. */
const HUB_PAGE = 100;

function Card({
  title,
  to,
  action,
  tone,
  children,
}: {
  title: string;
  to: string;
  action: string;
  tone: 'ok' | 'attention' | 'loading' | 'plain' | 'error';
  children: ReactNode;
}) {
  const badge = {
    ok: <span className="rounded bg-brand-500/20 px-2 py-0.5 text-xs text-brand-200">Set up</span>,
    attention: (
      <span className="rounded bg-amber-500/20 px-2 py-0.5 text-xs text-amber-200">
        Needs attention
      </span>
    ),
    loading: null,
    plain: null,
    error: (
      <span className="rounded bg-rose-500/20 px-2 py-0.5 text-xs text-rose-200">Not loaded</span>
    ),
  }[tone];
  return (
    <li
      className={`flex flex-col gap-3 rounded-2xl border bg-ink-900 p-5 ${
        tone === 'attention' ? 'border-amber-500/50' : 'border-ink-700'
      }`}
      aria-busy={tone === 'loading' || undefined}
    >
      <div className="flex items-center justify-between gap-2">
        <h2 className="text-lg font-semibold text-white">{title}</h2>
        {badge}
      </div>
      <div className="flex flex-1 flex-col gap-1 text-sm text-slate-300">{children}</div>
      <Link
        to={to}
        className={`self-start rounded-lg border border-ink-600 px-4 py-2 text-sm font-semibold text-slate-200 hover:bg-ink-800 ${focusRing}`}
      >
        {action}
      </Link>
    </li>
  );
}

function DiscordCard() {
  const servers = useRead<void, VendorDiscordServer[]>(fetchDiscordServers, undefined);
  const products = useRead<PageArg, Page<VendorCommunityProduct>>(fetchCommunityProducts, {
    limit: HUB_PAGE,
  });
  if (servers.status === 'failure' || products.status === 'failure')
    return (
      <Card title="Discord" to="/vendor/delivery/discord" action="Open Discord" tone="error">
        <p>{(servers.error ?? products.error)?.error ?? 'We could not load Discord.'}</p>
      </Card>
    );
  if (!servers.data || !products.data)
    return (
      <Card title="Discord" to="/vendor/delivery/discord" action="Open Discord" tone="loading">
        <p>Loading…</p>
      </Card>
    );
  const summary = discordSummary(
    servers.data.length,
    products.data.items,
    products.data.nextCursor !== null,
  );
  return (
    <Card title="Discord" to="/vendor/delivery/discord" action="Open Discord" tone={summary.tone}>
      {summary.lines.map((line) => (
        <p key={line}>{line}</p>
      ))}
    </Card>
  );
}

function TradingViewCard() {
  const tasks = useRead<TasksArg, Page<TradingViewTask>>(fetchTradingViewTasks, {
    status: 'pending',
    limit: HUB_PAGE,
  });
  const scripts = useRead<void, VendorTradingViewScript[]>(fetchTradingViewScripts, undefined);
  const now = useNow();
  const to = '/vendor/delivery/tradingview';
  if (tasks.status === 'failure' || scripts.status === 'failure')
    return (
      <Card title="TradingView" to={to} action="Open TradingView" tone="error">
        <p>{(tasks.error ?? scripts.error)?.error ?? 'We could not load TradingView.'}</p>
      </Card>
    );
  if (!tasks.data || !scripts.data)
    return (
      <Card title="TradingView" to={to} action="Open TradingView" tone="loading">
        <p>Loading…</p>
      </Card>
    );
  const queue = queueSummary(tasks.data.items, tasks.data.nextCursor !== null, now);
  const unused = scripts.data.filter((s) => !s.products.length).length;
  return (
    <Card
      title="TradingView"
      to={to}
      action="Open TradingView"
      tone={!scripts.data.length ? 'plain' : queue.tone}
    >
      <p>
        {scripts.data.length
          ? `${scripts.data.length} invite-only script${scripts.data.length === 1 ? '' : 's'}${
              unused ? `, ${unused} not delivered by any product` : ''
            }.`
          : 'No invite-only scripts added.'}
      </p>
      <p>{queue.text}</p>
    </Card>
  );
}

export function DeliveryHub() {
  return (
    <div className="flex flex-col gap-6">
      <PageHeader title="Delivery">
        How buyers get what they paid for: Discord roles, TradingView access, alerts, courses and
        licence keys.
      </PageHeader>
      <ul className="grid gap-4 md:grid-cols-2">
        <DiscordCard />
        <TradingViewCard />
        <Card title="Alerts" to="/vendor/delivery/alerts" action="Open alerts" tone="plain">
          <p>Send alerts from here, TradingView or the API, and see where each one went.</p>
        </Card>
        <Card title="Courses" to="/vendor/courses" action="Open courses" tone="plain">
          <p>Modules, lessons, video and attachment uploads, and drip schedules.</p>
        </Card>
        <Card title="Licences" to="/vendor/licences" action="Open licences" tone="plain">
          <p>Activation limits, what a key is bound to, and your signing key pair.</p>
        </Card>
      </ul>
    </div>
  );
}
