import { bindingRules } from '@tradeshelf/contract/client';
import { Link } from 'react-router';
import { Pager, useCursorPages } from '../../components/list-pager.tsx';
import { Screen } from '../../components/screen.tsx';
import { Alert } from '../../components/ui.tsx';
import { fetchLicenceApps, type LicenceAppsPage } from '../../features/workspace/licences/api.ts';
import { useRead } from '../../features/workspace/request.ts';

export default function VendorLicences() {
  const pages = useCursorPages();
  const list = useRead<{ cursor?: string }, LicenceAppsPage>(
    fetchLicenceApps,
    pages.cursor ? { cursor: pages.cursor } : {},
  );
  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="text-2xl font-bold text-white">Licences</h1>
        <p className="mt-1 text-sm text-slate-400">
          Terms, signing key and builds of your apps. Each purchase of an app issues a licence key.
        </p>
      </div>
      <Screen
        read={list}
        onRetry={() => void list.reload()}
        loading="Loading your apps…"
        rows={3}
        size="row"
        isEmpty={(page) => page.apps.length === 0 && !pages.cursor}
        empty={<Alert tone="info">You have no app products yet.</Alert>}
      >
        {({ apps }) => (
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
        )}
      </Screen>
      <Pager pages={pages} nextCursor={list.data?.nextCursor} busy={list.status === 'loading'} />
    </div>
  );
}
