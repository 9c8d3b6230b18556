import { useId, useRef } from 'react';
import { Link } from 'react-router';
import {
  LICENCE_RESETS_MAX,
  licenceEndedWords,
  licenceMessages,
  type LicenceBinding,
  type LicenceEventType,
  type LicenceStatus,
} from '@tradeshelf/contract/client';
import type { Licence, LicenceActivation } from '@tradeshelf/contract';
import { ConfirmStep, useConfirm } from '../../components/confirm-step.tsx';
import { Alert, Button } from '../../components/ui.tsx';
import { useToast } from '../../components/toasts.tsx';
import { formatDate, formatDateTime } from '../../lib/format.ts';
import { useAppDispatch, useAppSelector } from '../../lib/hooks.ts';
import { productPath } from '../../lib/paths.ts';
import { deactivateDevice, downloadBuild, fetchApps, resetLicenceKey } from './api.ts';
import { useCopyField } from './hooks.ts';
import { licenceActionCleared } from './slice.ts';
import { EventHistory } from '../../components/event-history.tsx';

/** A status in a word, with its colour (dark theme, AA contrast on ink-900). */
const statusLabels: Record<LicenceStatus, [string, string]> = {
  active: ['Active', 'bg-brand-500/20 text-brand-200'],
  expired: ['Expired', 'bg-slate-500/20 text-slate-300'],
  revoked: ['Revoked', 'bg-rose-500/20 text-rose-200'],
};

/** What a device's fingerprint is, by the binding it was activated with. */
export const bindingLabels: Record<LicenceBinding, string> = {
  metatrader_account: 'MetaTrader account',
  ninjatrader_machine: 'NinjaTrader machine id',
  device: 'Device fingerprint',
};

const eventLabels: Record<LicenceEventType, string> = {
  issued: 'Issued',
  activated: 'Activated',
  deactivated: 'Deactivated',
  reset: 'New key',
  expiry_changed: 'Expiry changed',
  revoked: 'Revoked',
  expired: 'Expired',
};

const endedWords = new Set(Object.values(licenceEndedWords));

/** The status in words: active (until when), or ended with why when the API knows. */
export function statusWords(licence: Licence): string {
  if (licence.status === 'active')
    return licence.expiresAt ? `Active · expires on ${formatDate(licence.expiresAt)}` : 'Active';
  if (endedWords.has(licence.message)) return licence.message;
  if (licence.status === 'expired')
    return licence.expiresAt ? `Expired on ${formatDate(licence.expiresAt)}` : 'Expired';
  return 'Revoked';
}

const focusRing =
  'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-400';

/**
 * The kit's confirm step state; opening or closing it drops the words of the last failure. The
 * step gives the focus back to its button when it closes, unless the page moved it on (the new key).
 */
function useConfirmStep(action: 'deactivate' | 'reset') {
  const dispatch = useAppDispatch();
  const { open, triggerId, show, close } = useConfirm();
  return {
    open,
    triggerId,
    start: () => {
      dispatch(licenceActionCleared(action));
      show();
    },
    close: () => {
      dispatch(licenceActionCleared(action));
      close();
    },
  };
}

/** The key in a read-only field, with Copy; "Copied" (or what to do instead) is announced. */
function KeyField({ licence }: { licence: Licence }) {
  const id = useId();
  const field = useRef<HTMLInputElement>(null);
  const { state, copy } = useCopyField(field);
  if (!licence.key)
    return <Alert>This key cannot be shown right now. Contact support for a new one.</Alert>;
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={`${id}-key`} className="text-sm font-medium text-slate-200">
        Licence key
      </label>
      <div className="flex flex-wrap items-center gap-2">
        <input
          ref={field}
          id={`${id}-key`}
          readOnly
          value={licence.key}
          spellCheck={false}
          autoComplete="off"
          data-testid="licence-key"
          className="w-full min-w-0 rounded-lg border border-ink-600 bg-ink-950 px-3 py-2.5 font-mono text-sm text-slate-100 sm:w-auto sm:flex-1"
        />
        <Button
          type="button"
          variant="ghost"
          data-testid="licence-copy"
          onClick={() => void copy()}
        >
          Copy <span className="sr-only">the key for {licence.product.title}</span>
        </Button>
      </div>
      <p role="status" aria-live="polite" className="min-h-5 text-sm" data-testid="licence-copied">
        {state === 'copied' && <span className="font-semibold text-brand-300">Copied</span>}
        {state === 'manual' && (
          <span className="text-amber-200">
            Your browser did not let us copy. The key is selected: press Ctrl+C (⌘C on a Mac) to
            copy it.
          </span>
        )}
      </p>
    </div>
  );
}

/** One device: what it is, when it was last seen, and Deactivate after a confirm step. */
function DeviceRow({
  licence,
  activation,
  onGone,
}: {
  licence: Licence;
  activation: LicenceActivation;
  onGone: () => void;
}) {
  const dispatch = useAppDispatch();
  const toast = useToast();
  const state = useAppSelector((s) => s.licence.deactivate);
  const step = useConfirmStep('deactivate');
  const mine = state.target?.activationId === activation.id;
  const doDeactivate = async () => {
    const result = await dispatch(
      deactivateDevice({ licenceId: licence.id, activationId: activation.id }),
    );
    if (deactivateDevice.fulfilled.match(result)) {
      toast(`“${activation.name}” deactivated.`);
      onGone();
    } else if (result.payload?.code === 'not_found') {
      // Already gone (deactivated from the app itself): say so and show the list as it stands.
      toast(result.payload.error, 'error');
      await dispatch(fetchApps());
      onGone();
    }
  };
  return (
    <li
      className="flex flex-col gap-3 rounded-xl border border-ink-700 bg-ink-950/40 p-3"
      data-testid="licence-device"
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="font-semibold break-words text-white" data-testid="licence-device-name">
            {activation.name}
          </p>
          <p className="text-sm break-all text-slate-300">
            {bindingLabels[activation.binding]}:{' '}
            <span className="font-mono">{activation.fingerprint}</span>
          </p>
          <p className="text-xs text-slate-400">
            Last seen{' '}
            <time dateTime={activation.lastSeenAt}>{formatDateTime(activation.lastSeenAt)}</time>
            {' · '}activated{' '}
            <time dateTime={activation.activatedAt}>{formatDate(activation.activatedAt)}</time>
          </p>
        </div>
        {!step.open && (
          <Button
            id={step.triggerId}
            type="button"
            variant="ghost"
            data-testid="licence-device-deactivate"
            onClick={step.start}
          >
            Deactivate <span className="sr-only">{activation.name}</span>
          </Button>
        )}
      </div>
      {step.open && (
        <ConfirmStep
          title={`Deactivate “${activation.name}”?`}
          confirmLabel="Deactivate"
          testId="licence-device-deactivate-confirm"
          busy={mine && state.status === 'loading'}
          error={mine && state.status === 'failure' ? (state.error?.error ?? null) : null}
          onConfirm={() => void doDeactivate()}
          onCancel={step.close}
          returnFocusTo={step.triggerId}
        >
          <p>
            Its slot is freed at once, and the app on it stops working the next time it checks the
            licence. You can activate it again later with the same key.
          </p>
        </ConfirmStep>
      )}
    </li>
  );
}

function Devices({ licence }: { licence: Licence }) {
  const headingId = useId();
  const used = licence.activations.length;
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-2">
      <h3 id={headingId} tabIndex={-1} className="font-semibold text-white focus:outline-none">
        Devices{' '}
        <span className="font-normal text-slate-400" data-testid="licence-activations">
          ({used} of {licence.maxActivations} in use)
        </span>
      </h3>
      {licence.binding && (
        <p className="text-sm text-slate-400">
          This app activates per {bindingLabels[licence.binding]}.
        </p>
      )}
      {used === 0 ? (
        <p className="text-sm text-slate-300" data-testid="licence-no-devices">
          Not active on any device yet. Enter the key in the app to activate it.
        </p>
      ) : (
        <ul aria-labelledby={headingId} className="flex flex-col gap-2">
          {licence.activations.map((a) => (
            <DeviceRow
              key={a.id}
              licence={licence}
              activation={a}
              // The row is gone: the focus goes to the list's heading, which says the new count.
              onGone={() => document.getElementById(headingId)?.focus()}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

/** Reset key: a new key, the old one and every activation gone (the API's rule), a few per licence. */
function ResetKey({ licence, onReset }: { licence: Licence; onReset: () => void }) {
  const dispatch = useAppDispatch();
  const toast = useToast();
  const state = useAppSelector((s) => s.licence.reset);
  const step = useConfirmStep('reset');
  const mine = state.licenceId === licence.id;
  const noteId = useId();
  const why =
    licence.resetsLeft === 0
      ? licenceMessages.resetsUsed
      : licence.status !== 'active'
        ? licenceMessages.resetInactive
        : null;
  const doReset = async () => {
    const result = await dispatch(resetLicenceKey(licence.id));
    if (resetLicenceKey.fulfilled.match(result)) {
      step.close();
      toast('New key issued. Enter it in the app on each device.');
      onReset();
    }
  };
  const devices = licence.activations.length;
  return (
    <div className="flex flex-col gap-2">
      {!step.open && (
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
          <Button
            id={step.triggerId}
            type="button"
            variant="ghost"
            disabled={why !== null}
            aria-describedby={noteId}
            data-testid="licence-reset"
            onClick={step.start}
          >
            Reset key
          </Button>
          <span id={noteId} className="text-sm text-slate-400" data-testid="licence-resets-left">
            {why ?? `${licence.resetsLeft} of ${LICENCE_RESETS_MAX} resets left`}
          </span>
        </div>
      )}
      {step.open && (
        <ConfirmStep
          title={`Reset the key for ${licence.product.title}?`}
          confirmLabel="Reset the key"
          testId="licence-reset-confirm"
          busy={mine && state.status === 'loading'}
          error={mine && state.status === 'failure' ? (state.error?.error ?? null) : null}
          onConfirm={() => void doReset()}
          onCancel={step.close}
          returnFocusTo={step.triggerId}
        >
          <p>
            You get a new key and the current one stops working at once.{' '}
            {devices === 0
              ? 'Enter the new key in the app to activate it.'
              : devices === 1
                ? 'The device it is active on is deactivated: enter the new key in the app there to activate it again.'
                : `All ${devices} devices are deactivated: enter the new key in the app on each one to activate it again.`}
          </p>
          <p>
            You can reset this key {licence.resetsLeft} more time
            {licence.resetsLeft === 1 ? '' : 's'}.
          </p>
        </ConfirmStep>
      )}
    </div>
  );
}

/** Download: asks for a signed link to the current build and lets the browser fetch it. */
function DownloadBuild({ licence }: { licence: Licence }) {
  const dispatch = useAppDispatch();
  const state = useAppSelector((s) => s.licence.download);
  const noteId = useId();
  const mine = state.licenceId === licence.id;
  const build = licence.build;
  if (!build) return <p className="text-sm text-slate-400">{licenceMessages.noBuild}</p>;
  const active = licence.status === 'active';
  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <Button
          type="button"
          disabled={!active}
          loading={mine && state.status === 'loading'}
          aria-describedby={noteId}
          data-testid="licence-download"
          onClick={() => void dispatch(downloadBuild(licence.id))}
        >
          Download <span className="sr-only">{licence.product.title}</span>
        </Button>
        <span id={noteId} className="text-sm break-words text-slate-400">
          {active
            ? `Version ${build.version} · ${build.fileName} · ${Math.max(1, Math.ceil(build.sizeBytes / 1024))} KB · published ${formatDate(build.publishedAt)}`
            : licenceMessages.downloadInactive}
        </span>
      </div>
      {mine && state.status === 'failure' && state.error && <Alert>{state.error.error}</Alert>}
      {mine && state.status === 'success' && state.data && (
        <p role="status" className="text-sm text-slate-300">
          Your download has started. If it does not,{' '}
          <a
            href={state.data.url}
            className="font-semibold text-brand-400 underline underline-offset-2 hover:decoration-2"
          >
            download {state.data.build.fileName}
          </a>{' '}
          (the link works until{' '}
          <time dateTime={state.data.expiresAt}>{formatDateTime(state.data.expiresAt)}</time>).
        </p>
      )}
    </div>
  );
}

/** One licence on the apps page: the app, its status, key, devices, download and key reset. */
export function LicenceCard({ licence }: { licence: Licence }) {
  const titleId = useId();
  const [label, style] = statusLabels[licence.status];
  const keyArea = useRef<HTMLDivElement>(null);
  return (
    <article
      aria-labelledby={titleId}
      data-testid="licence-card"
      data-status={licence.status}
      className="flex flex-col gap-4 rounded-2xl border border-ink-700 bg-ink-900 p-5"
    >
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 id={titleId} className="text-lg font-semibold text-white">
            <Link to={productPath(licence.product)} className={`hover:text-brand-300 ${focusRing}`}>
              {licence.product.title}
            </Link>
          </h2>
          <p className="text-sm text-slate-400">by {licence.vendor.displayName}</p>
        </div>
        <span
          className={`rounded px-2 py-0.5 text-xs font-semibold whitespace-nowrap ${style}`}
          aria-hidden
        >
          {label}
        </span>
      </header>
      <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-1.5 text-sm">
        <dt className="text-slate-400">Status</dt>
        <dd className="text-slate-100" data-testid="licence-status">
          {statusWords(licence)}
        </dd>
        <dt className="text-slate-400">Expires</dt>
        <dd>
          {licence.expiresAt ? (
            <time dateTime={licence.expiresAt}>{formatDate(licence.expiresAt)}</time>
          ) : licence.status === 'active' ? (
            'No end date'
          ) : (
            '—'
          )}
        </dd>
        <dt className="text-slate-400">Issued</dt>
        <dd>
          <time dateTime={licence.issuedAt}>{formatDate(licence.issuedAt)}</time>
        </dd>
      </dl>
      <div ref={keyArea}>
        <KeyField licence={licence} />
      </div>
      <Devices licence={licence} />
      <div className="flex flex-col gap-3 border-t border-ink-700 pt-4">
        <DownloadBuild licence={licence} />
        <ResetKey
          licence={licence}
          // The new key is what the buyer wants next: the focus goes to its field.
          onReset={() => keyArea.current?.querySelector('input')?.focus()}
        />
      </div>
      <EventHistory items={licence.history} labels={eventLabels} />
    </article>
  );
}
