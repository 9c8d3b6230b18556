import { bindingRules } from '@tradeshelf/contract/client';
import { useState } from 'react';
import { Link } from 'react-router';
import { Alert, Button } from '../../components/ui.tsx';
import { fetchLicenceApps, type LicenceAppsPage } from '../../features/workspace/licences/api.ts';
import { useRead } from '../../features/workspace/request.ts';

export default function VendorLicences() {
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors[cursors.length - 1];
  const list = useRead<{ cursor?: string }, LicenceAppsPage>(
    fetchLicenceApps,
    cursor ? { cursor } : {},
  );
  const apps = list.data?.apps ?? [];
  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-2xl font-bold text-white">Licences</h1>
        <p className="mt-1 text-sm text-slate-400">
          Terms, signing key and builds of your apps. Each purchase of an app issues a licence key.
        </p>
      </div>
      {list.error && <Alert>{list.error.error}</Alert>}
      {list.status === 'loading' && !list.data && <p className="text-slate-400">Loading…</p>}
      {list.status === 'success' && apps.length === 0 && (
        <Alert tone="info">You have no app products yet.</Alert>
      )}
      <ul className="grid gap-3">
        {apps.map((a) => (
          <li key={a.productId}>
            <Link
              to={`/vendor/licences/${a.productId}`}
              className="flex flex-wrap items-center justify-between gap-2 rounded-xl border border-ink-700 bg-ink-900 p-4 hover:border-brand-500"
            >
              <span className="font-semibold text-white">{a.title}</span>
              <span className="text-sm text-slate-400">
                {a.maxActivations} activations ·{' '}
                {a.binding ? bindingRules[a.binding].label : 'any preset'} · {a.counts.issued}{' '}
                issued · {a.counts.active} active ·{' '}
                {a.build ? `build ${a.build.version}` : 'no build'}
              </span>
            </Link>
          </li>
        ))}
      </ul>
      <div className="flex gap-2">
        {cursors.length > 0 && (
          <Button type="button" variant="ghost" onClick={() => setCursors(cursors.slice(0, -1))}>
            Previous
          </Button>
        )}
        {list.data?.nextCursor && (
          <Button
            type="button"
            variant="ghost"
            onClick={() => setCursors([...cursors, list.data!.nextCursor!])}
          >
            Next
          </Button>
        )}
      </div>
    </div>
  );
}
