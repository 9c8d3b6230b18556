import { Link } from 'react-router';
import { categoryOfKind } from '@tradeshelf/contract/client';
import { RequireAuth } from '../components/require-auth.tsx';
import { LicenceCard } from '../features/licences/components.tsx';
import { useApps } from '../features/licences/hooks.ts';
import { pageMeta } from '../lib/seo.ts';
import { Screen } from '../components/screen.tsx';

export const meta = () => [
  ...pageMeta('Apps and licences', 'Your app keys, the devices they run on and the downloads.'),
  { name: 'robots', content: 'noindex' },
];

/** user.apps (docs/product.md#request-groups): every licence the buyer holds (the API does not page this list). */
export function AppsPage() {
  const { apps, reload } = useApps();
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-6">
      <div className="flex flex-col gap-1">
        <h1 className="text-2xl font-bold text-white">Apps and licences</h1>
        <p className="text-sm text-slate-400">
          Copy a key into the app to activate it, see the devices it runs on and download the latest
          version.
        </p>
      </div>
      <Screen
        read={apps}
        onRetry={reload}
        loading="Loading your apps…"
        size="page"
        rows={2}
        isEmpty={(d) => d.length === 0}
        empty={
          <div
            data-testid="apps-empty"
            className="flex flex-col items-center gap-3 rounded-2xl border border-ink-700 bg-ink-900 px-6 py-12 text-center"
          >
            <p className="text-lg font-semibold text-white">You have no apps yet</p>
            <p className="text-sm text-slate-400">
              When you buy an app, its licence key and download show up here.
            </p>
            <Link
              to={`/search?category=${categoryOfKind.app}`}
              className="rounded-lg bg-brand-500 px-4 py-2.5 text-sm font-semibold text-ink-950 hover:bg-brand-400"
            >
              Browse apps
            </Link>
          </div>
        }
      >
        {(list) => (
          <ul aria-label="Your apps" className="flex flex-col gap-4">
            {list.map((l) => (
              <li key={l.id}>
                <LicenceCard licence={l} />
              </li>
            ))}
          </ul>
        )}
      </Screen>
    </div>
  );
}

export default function Apps() {
  return (
    <RequireAuth>
      <AppsPage />
    </RequireAuth>
  );
}
