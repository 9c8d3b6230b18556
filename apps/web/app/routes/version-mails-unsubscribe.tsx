import { Link, useSearchParams } from 'react-router';
import { Alert, Button } from '../components/ui.tsx';
import { unsubscribeVersionMails } from '../features/deliverables/index.ts';
import { useAppDispatch, useAppSelector } from '../lib/hooks.ts';
import { pageMeta } from '../lib/seo.ts';

export const meta = () => [
  ...pageMeta(
    'Stop new-version e-mails',
    'Turn off the e-mails about new versions of one product.',
  ),
  { name: 'robots', content: 'noindex' },
];

/**
 * The link in a new-version e-mail lands here; the button turns that product's version e-mails off.
 * It takes a press, not the page load, so a mail scanner that follows links unsubscribes nobody.
 */
export default function VersionMailsUnsubscribe() {
  const dispatch = useAppDispatch();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const state = useAppSelector((s) => s.deliverables.unsubscribe);

  return (
    <div className="mx-auto flex max-w-md flex-col gap-4 rounded-2xl border border-ink-700 bg-ink-900 p-6">
      <h1 className="text-2xl font-bold text-white">Stop new-version e-mails</h1>
      {state.status === 'success' && state.data ? (
        <p role="status" className="text-slate-200">
          {state.data.message} Your downloads stay in your{' '}
          <Link to="/library" className="text-brand-300 underline underline-offset-2">
            library
          </Link>
          .
        </p>
      ) : (
        <>
          <p className="text-slate-300">
            Turn off the e-mails about new versions of this product. You keep the product and its
            downloads.
          </p>
          {state.status === 'failure' && state.error && <Alert>{state.error.error}</Alert>}
          {!token && <Alert>This link has no token. Use the link from the e-mail as it is.</Alert>}
          <Button
            type="button"
            disabled={!token}
            loading={state.status === 'loading'}
            onClick={() => void dispatch(unsubscribeVersionMails(token))}
            className="self-start"
          >
            Stop these e-mails
          </Button>
        </>
      )}
    </div>
  );
}
