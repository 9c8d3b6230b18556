import type { VendorProductStatus } from '@tradeshelf/contract/client';
import { BackLink } from '../screen-kit.tsx';
import { Button } from '../../../components/ui.tsx';
import { statusLabels, statusStyles } from './labels.ts';

/** A listing's state (draft, published, unpublished): products, bundles and the bundle picker. */
export function StatusPill({ status }: { status: VendorProductStatus }) {
  return (
    <span className={`rounded-full border px-2 py-0.5 text-xs ${statusStyles[status]}`}>
      {statusLabels[status]}
    </span>
  );
}

/** An editor's title line: the listing's name and state, and the way back to its list. */
export function EditorHeading({
  title,
  status,
  back,
}: {
  title: string;
  status?: VendorProductStatus;
  back: { to: string; label: string };
}) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-3">
      <div className="flex items-center gap-3">
        <h1 className="text-2xl font-bold text-white">{title}</h1>
        {status && <StatusPill status={status} />}
      </div>
      <BackLink to={back.to}>{back.label}</BackLink>
    </div>
  );
}

/**
 * A save refused because another tab saved first (409): what was typed stays, and the vendor
 * chooses to load the other version or to save theirs over it. Products and bundles both.
 */
export function ConflictNotice({
  message,
  loadError,
  loading,
  busy,
  onLoadLatest,
  onReplace,
}: {
  message: string | undefined;
  loadError: string | undefined;
  loading: boolean;
  busy: boolean;
  onLoadLatest: () => void;
  onReplace: () => void;
}) {
  return (
    <div
      role="alert"
      className="flex flex-col gap-3 rounded-lg border border-amber-500/40 bg-amber-500/10 p-4 text-sm text-amber-100"
    >
      <p>{message}</p>
      {loadError && <p className="text-rose-300">{loadError}</p>}
      <div className="flex flex-wrap gap-2">
        <Button type="button" loading={loading} onClick={onLoadLatest}>
          Load the latest version
        </Button>
        <Button type="button" variant="ghost" disabled={busy} onClick={onReplace}>
          Save mine to replace it
        </Button>
      </div>
    </div>
  );
}
