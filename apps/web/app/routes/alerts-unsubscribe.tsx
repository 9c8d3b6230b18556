import { Link } from 'react-router';
import { UnsubscribePage } from '../components/unsubscribe-page.tsx';
import { unsubscribeAlerts } from '../features/membership/api.ts';
import { useAppDispatch, useAppSelector } from '../lib/hooks.ts';
import { pageMeta } from '../lib/seo.ts';

export const meta = () => [
  ...pageMeta('Stop search alerts', 'Turn off the e-mails for one of your saved searches.'),
  { name: 'robots', content: 'noindex' },
];

/** The link in an alert e-mail lands here; the button turns that search's alerts off. */
export default function AlertsUnsubscribe() {
  const dispatch = useAppDispatch();
  const state = useAppSelector((s) => s.membership.unsubscribe);

  return (
    <UnsubscribePage
      title="Stop search alerts"
      intro="Turn off the new-listing e-mails for this saved search. The search itself stays saved."
      button="Turn off alerts"
      state={state}
      onUnsubscribe={(token) => void dispatch(unsubscribeAlerts(token))}
      done={(data) => (
        <>
          {data.message}
          {data.name && <> (“{data.name}”)</>}. You can turn them on again on your{' '}
          <Link
            to="/account#saved-searches"
            className="text-brand-300 underline underline-offset-2"
          >
            account page
          </Link>
          .
        </>
      )}
    />
  );
}
