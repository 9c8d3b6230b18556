// What an owner gets for a product (issue 29): a download per platform with its release notes,
// earlier versions, the set-up guide, the licence key; or why downloads have ended.
import { deliverableMessages as m } from '@tradeshelf/contract/client';
import type {
  DeliverableVersion,
  Entitlement,
  OwnedDelivery,
  PlatformDelivery,
} from '@tradeshelf/contract';
import { useEffect, useId, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Loading, ReadError } from '../../components/screen.tsx';
import { Alert, Button } from '../../components/ui.tsx';
import { formatBytes } from '../../lib/bytes.ts';
import { formatDate, formatDateTime } from '../../lib/format.ts';
import { useAppDispatch, useAppSelector } from '../../lib/hooks.ts';
import { MarkdownHtml } from '../../lib/markdown.tsx';
import { APPS_PATH } from '../../lib/paths.ts';
import { downloadVersion, fetchOwnedDelivery, setVersionMails } from './api.ts';
import './slice.ts';

const linkClass =
  'font-semibold text-brand-400 underline underline-offset-2 hover:decoration-2 print:text-black';

/** "v2.4, 1.2 MB, released Nov 12, 2026": what a version is, from its data. */
export function versionFacts(v: DeliverableVersion): string {
  return [
    `v${v.version}`,
    v.sizeBytes !== null ? formatBytes(v.sizeBytes) : null,
    `released ${formatDate(v.releasedAt)}`,
  ]
    .filter(Boolean)
    .join(', ');
}

/** Whether a product hands this owner anything through this panel. */
export const deliversSomething = (d: OwnedDelivery) =>
  d.platforms.length > 0 || d.guide !== null || d.licenceKey !== null;

/**
 * The version offered first: the current one, or, when the purchase's updates do not reach it, the
 * newest the purchase includes.
 */
export function offeredVersion(p: PlatformDelivery): DeliverableVersion | null {
  if (p.current.available) return p.current;
  return p.earlier.find((v) => v.available) ?? null;
}

/** One version's download button, and what came of pressing it (started, or refused and why). */
function DownloadButton({
  productId,
  version,
  children,
  primary = false,
}: {
  productId: string;
  version: DeliverableVersion;
  children: ReactNode;
  primary?: boolean;
}) {
  const dispatch = useAppDispatch();
  const state = useAppSelector((s) => s.deliverables.downloads[version.id]);
  return (
    <div className="flex flex-col gap-1.5">
      <Button
        type="button"
        variant={primary ? 'primary' : 'ghost'}
        className={`self-start text-left ${primary ? '' : 'px-3 py-1.5'}`}
        loading={state?.status === 'loading'}
        data-testid="deliverable-download"
        onClick={() => void dispatch(downloadVersion({ productId, versionId: version.id }))}
      >
        {children}
      </Button>
      {state?.status === 'failure' && state.error && <Alert>{state.error.error}</Alert>}
      {state?.status === 'success' && state.data && (
        <p role="status" className="text-sm break-words text-slate-300">
          {version.link ? 'Opening the link. ' : 'Your download has started. '}If it does not,{' '}
          <a href={state.data.url} className={linkClass}>
            {version.link ? 'open it here' : `download ${state.data.fileName}`}
          </a>{' '}
          (the link works until{' '}
          <time dateTime={state.data.expiresAt}>{formatDateTime(state.data.expiresAt)}</time>).
        </p>
      )}
    </div>
  );
}

function Notes({ v }: { v: DeliverableVersion }) {
  if (!v.notesHtml) return null;
  return (
    <div className="rounded-lg border border-ink-700 bg-ink-950 p-3 text-sm">
      <p className="mb-1 text-xs tracking-wide text-slate-400 uppercase">
        What is new in v{v.version}
      </p>
      <MarkdownHtml html={v.notesHtml} testId="release-notes" />
    </div>
  );
}

function Platform({ productId, p }: { productId: string; p: PlatformDelivery }) {
  const offered = offeredVersion(p);
  const others = [p.current, ...p.earlier].filter((v) => v.id !== offered?.id);
  const verb = (v: DeliverableVersion) => (v.link ? 'Open for' : 'Download for');
  return (
    <section
      aria-label={p.label}
      data-testid="platform-delivery"
      data-platform={p.platform}
      className="flex flex-col gap-2"
    >
      {offered ? (
        <DownloadButton productId={productId} version={offered} primary>
          {verb(offered)} {p.label} — {versionFacts(offered)}
        </DownloadButton>
      ) : (
        <p className="text-sm text-slate-300">{p.label}</p>
      )}
      {!p.current.available && (
        <p className="text-sm text-amber-200" data-testid="outside-updates">
          {p.label} {versionFacts(p.current)} is out. {m.outsideUpdates}
        </p>
      )}
      {offered && <Notes v={offered} />}
      {others.length > 0 && (
        <details className="rounded-lg border border-ink-700 p-3 text-sm">
          <summary className="cursor-pointer font-medium text-slate-200">
            Earlier versions <span className="sr-only">for {p.label}</span>
          </summary>
          <ul className="mt-3 flex flex-col gap-3" aria-label={`Earlier versions for ${p.label}`}>
            {others.map((v) => (
              <li key={v.id} className="flex flex-col gap-1.5" data-testid="earlier-version">
                {v.available ? (
                  <DownloadButton productId={productId} version={v}>
                    {verb(v)} {p.label} — {versionFacts(v)}
                  </DownloadButton>
                ) : (
                  <p className="text-slate-300">
                    {versionFacts(v)}:{' '}
                    <span className="text-slate-400">not included in your updates.</span>
                  </p>
                )}
                <Notes v={v} />
              </li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}

/** The delivery itself, once read. */
/** Whether new versions are e-mailed, and the owner's switch for it (also after the mail's link). */
function VersionMails({ productId, on }: { productId: string; on: boolean }) {
  const dispatch = useAppDispatch();
  const [mails, setMails] = useState({ on, busy: false, said: '', error: '' });
  const toggle = async () => {
    setMails((s) => ({ ...s, busy: true, error: '' }));
    const r = await dispatch(setVersionMails({ productId, enabled: !mails.on }));
    if (setVersionMails.fulfilled.match(r))
      setMails({ on: r.payload.versionMails, busy: false, said: r.payload.message, error: '' });
    else
      setMails((s) => ({ ...s, busy: false, error: r.payload?.error ?? 'Something went wrong' }));
  };
  return (
    <span className="inline-flex flex-wrap items-center gap-x-2">
      <span role="status">
        {mails.said || (mails.on ? 'New versions are e-mailed to you.' : m.unsubscribed)}
      </span>
      <button
        type="button"
        className="font-semibold text-brand-400 underline underline-offset-2 hover:decoration-2 disabled:opacity-60"
        disabled={mails.busy}
        onClick={() => void toggle()}
      >
        {mails.on ? 'Stop these e-mails' : 'E-mail me new versions'}
      </button>
      {mails.error && <span className="text-red-300">{mails.error}</span>}
    </span>
  );
}

export function DeliveryView({ delivery: d }: { delivery: OwnedDelivery }) {
  const guideId = useId();
  if (d.ended)
    return (
      <div role="status" data-testid="downloads-ended">
        <Alert tone="info">{d.ended.message}</Alert>
      </div>
    );
  return (
    <div className="flex flex-col gap-4" data-testid="owned-delivery">
      {d.platforms.map((p) => (
        <Platform key={p.platform} productId={d.product.id} p={p} />
      ))}
      {d.platforms.length > 0 && (
        <p className="text-xs text-slate-400">
          {d.updates.label}. <VersionMails productId={d.product.id} on={d.versionMails} /> Your
          files carry the id <span className="font-mono">{d.traceId}</span>.
        </p>
      )}
      {d.licenceKey && (
        <p className="text-sm text-slate-200">
          Licence key:{' '}
          <code className="rounded bg-ink-800 px-1.5 py-0.5 break-all" data-testid="licence-key">
            {d.licenceKey}
          </code>{' '}
          <Link to={APPS_PATH} className={linkClass}>
            Devices and key reset
          </Link>
        </p>
      )}
      {d.guide && (
        <section aria-labelledby={guideId} className="flex flex-col gap-2">
          <h4 id={guideId} className="font-semibold text-white">
            Set-up guide
          </h4>
          {/* Rendered and sanitised by the API (ADR 056): inserted as it is. */}
          <MarkdownHtml html={d.guide.html} testId="setup-guide" className="text-sm" />
        </section>
      )}
    </div>
  );
}

/**
 * Reads and shows what an owner gets for one product. `empty` is said when it delivers nothing
 * here (or the buyer does not own it: the order page lists every product of a bundle).
 */
export function ProductDelivery({
  productId,
  title,
  empty = null,
}: {
  productId: string;
  /** A heading naming the product, where a page shows several. */
  title?: string;
  empty?: ReactNode;
}) {
  const dispatch = useAppDispatch();
  const state = useAppSelector((s) => s.deliverables.owned[productId]);
  const status = state?.status ?? 'idle';
  // Read on every visit: a refund or a new version since the last read changes what is offered.
  useEffect(() => {
    void dispatch(fetchOwnedDelivery(productId));
  }, [dispatch, productId]);
  const data = state?.data ?? null;
  if (!data) {
    if (status === 'failure')
      return state?.error?.code === 'not_found' ? (
        <>{empty}</>
      ) : (
        <ReadError
          error={state?.error ?? null}
          onRetry={() => void dispatch(fetchOwnedDelivery(productId))}
        />
      );
    return <Loading label="Loading your downloads…" size="row" />;
  }
  if (!deliversSomething(data)) return <>{empty}</>;
  return (
    <div className="flex flex-col gap-3 print:hidden" data-testid="product-delivery">
      {title && <h3 className="font-semibold text-white">{title}</h3>}
      <DeliveryView delivery={data} />
    </div>
  );
}

/**
 * The downloads of an order's products (a bundle has several), each read on its own; products that
 * deliver nothing here say nothing.
 */
export function PurchaseDeliveries({ entitlements }: { entitlements: readonly Entitlement[] }) {
  const products = [
    ...new Map(
      entitlements.filter((e) => e.kind === 'access').map((e) => [e.productId, e] as const),
    ).values(),
  ];
  return (
    <>
      {products.map((e) => (
        <ProductDelivery
          key={e.productId}
          productId={e.productId}
          {...(products.length > 1 ? { title: e.productTitle } : {})}
        />
      ))}
    </>
  );
}
