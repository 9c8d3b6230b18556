import { Link, useSearchParams } from 'react-router';
import { Alert, Button } from '../components/ui.tsx';
import { unsubscribeAlerts } from '../features/membership/api.ts';
import { useAppDispatch, useAppSelector } from '../lib/hooks.ts';
import { pageMeta } from '../lib/seo.ts';

export const meta = () => [
  ...pageMeta('Stop search alerts', 'Turn off the e-mails for one of your saved searches.'),
  { name: 'robots', content: 'noindex' },
];

/**
 * The link in an alert e-mail lands here; the button turns that search's alerts off. It takes a
 * press, not the page load, so a mail scanner that follows links unsubscribes nobody.
 */
export default function AlertsUnsubscribe() {
  const dispatch = useAppDispatch();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const state = useAppSelector((s) => s.membership.unsubscribe);

  return (
    <div className="mx-auto flex max-w-md flex-col gap-4 rounded-2xl border border-ink-700 bg-ink-900 p-6">
      <h1 className="text-2xl font-bold text-white">Stop search alerts</h1>
      {state.status === 'success' && state.data ? (
        <p role="status" className="text-slate-200">
          {state.data.message}
          {state.data.name && <> (“{state.data.name}”)</>}. You can turn them on again on your{' '}
          <Link
            to="/account#saved-searches"
            className="text-brand-300 underline underline-offset-2"
          >
            account page
          </Link>
          .
        </p>
      ) : (
        <>
          <p className="text-slate-300">
            Turn off the new-listing e-mails for this saved search. The search itself stays saved.
          </p>
          {state.status === 'failure' && state.error && <Alert>{state.error.error}</Alert>}
          {!token && <Alert>This link has no token. Use the link from the e-mail as it is.</Alert>}
          <Button
            type="button"
            disabled={!token}
            loading={state.status === 'loading'}
            onClick={() => void dispatch(unsubscribeAlerts(token))}
            className="self-start"
          >
            Turn off alerts
          </Button>
        </>
      )}
    </div>
  );
}
