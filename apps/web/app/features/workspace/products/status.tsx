import type { VendorProductStatus } from '@tradeshelf/contract/client';
import { Link } from 'react-router';
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
      <Link to={back.to} className="text-sm text-slate-400 hover:text-white">
        ← {back.label}
      </Link>
    </div>
  );
}
