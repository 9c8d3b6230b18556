import type { ReactNode } from 'react';
import { Link, useLocation, useSearchParams, type Location } from 'react-router';
import { Alert, Button } from '../components/ui.tsx';
import { unsubscribeVersionMails } from '../features/deliverables/index.ts';
import { unsubscribeAlerts } from '../features/membership/api.ts';
import { useAppDispatch, useAppSelector } from '../lib/hooks.ts';
import type { RequestState } from '../lib/request-state.ts';
import { pageMeta } from '../lib/seo.ts';
import type { AppDispatch, RootState } from '../store.ts';

interface Mails<T> {
  state: (s: RootState) => RequestState<T>;
  unsubscribe: (dispatch: AppDispatch, token: string) => unknown;
  title: string;
  description: string;
  /** What the press turns off, and what it leaves. */
  intro: string;
  button: string;
  /** The words once it is done. */
  done: (data: T) => ReactNode;
}

const link = 'text-brand-300 underline underline-offset-2';

// The e-mails a link can stop (/alerts/unsubscribe, /version-mails/unsubscribe: routes.ts), each
// with its page's words.
const mails = {
  alerts: {
    state: (s) => s.membership.unsubscribe,
    unsubscribe: (dispatch, token) => dispatch(unsubscribeAlerts(token)),
    title: 'Stop search alerts',
    description: 'Turn off the e-mails for one of your saved searches.',
    intro: 'Turn off the new-listing e-mails for this saved search. The search itself stays saved.',
    button: 'Turn off alerts',
    done: (data) => (
      <>
        {data.message}
        {data.name && <> (“{data.name}”)</>}. You can turn them on again on your{' '}
        <Link to="/account#saved-searches" className={link}>
          account page
        </Link>
        .
      </>
    ),
  } satisfies Mails<{ message: string; name: string }>,
  versions: {
    state: (s) => s.deliverables.unsubscribe,
    unsubscribe: (dispatch, token) => dispatch(unsubscribeVersionMails(token)),
    title: 'Stop new-version e-mails',
    description: 'Turn off the e-mails about new versions of one product.',
    intro:
      'Turn off the e-mails about new versions of this product. You keep the product and its downloads.',
    button: 'Stop these e-mails',
    done: (data) => (
      <>
        {data.message} Your downloads stay in your{' '}
        <Link to="/library" className={link}>
          library
        </Link>
        .
      </>
    ),
  } satisfies Mails<{ message: string }>,
};

const mailsOf = (location: Pick<Location, 'pathname'>): Mails<unknown> =>
  (location.pathname.startsWith('/alerts/') ? mails.alerts : mails.versions) as Mails<unknown>;

export const meta = ({ location }: { location: Location }) => {
  const m = mailsOf(location);
  return [...pageMeta(m.title, m.description), { name: 'robots', content: 'noindex' }];
};

/**
 * Where an e-mail's unsubscribe link lands: the button turns those e-mails off (a saved search's
 * alerts, or a product's new-version e-mails). It takes a press, not the page load, so a mail
 * scanner that follows links unsubscribes nobody.
 */
export default function Unsubscribe() {
  const m = mailsOf(useLocation());
  const dispatch = useAppDispatch();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const state = useAppSelector(m.state);

  return (
    <div className="mx-auto flex max-w-md flex-col gap-4 rounded-2xl border border-ink-700 bg-ink-900 p-6">
      <h1 className="text-2xl font-bold text-white">{m.title}</h1>
      {state.status === 'success' && state.data ? (
        <p role="status" className="text-slate-200">
          {m.done(state.data)}
        </p>
      ) : (
        <>
          <p className="text-slate-300">{m.intro}</p>
          {state.status === 'failure' && state.error && <Alert>{state.error.error}</Alert>}
          {!token && <Alert>This link has no token. Use the link from the e-mail as it is.</Alert>}
          <Button
            type="button"
            disabled={!token}
            loading={state.status === 'loading'}
            onClick={() => void m.unsubscribe(dispatch, token)}
            className="self-start"
          >
            {m.button}
          </Button>
        </>
      )}
    </div>
  );
}
