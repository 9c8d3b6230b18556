import { categoryOfKind } from '@tradeshelf/contract/client';
import { RequireAuth } from '../components/require-auth.tsx';
import { LicenceCard } from '../features/licences/components.tsx';
import { useApps } from '../features/licences/hooks.ts';
import { pageMeta } from '../lib/seo.ts';
import { Screen } from '../components/screen.tsx';
import { NothingYet } from '../components/nothing-yet.tsx';

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
          <NothingYet
            testId="apps-empty"
            title="You have no apps yet"
            note="When you buy an app, its licence key and download show up here."
            to={`/search?category=${categoryOfKind.app}`}
            action="Browse apps"
          />
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
