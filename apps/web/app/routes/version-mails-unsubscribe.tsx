import { Link } from 'react-router';
import { UnsubscribePage } from '../components/unsubscribe-page.tsx';
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

/** The link in a new-version e-mail lands here; the button turns that product's version e-mails off. */
export default function VersionMailsUnsubscribe() {
  const dispatch = useAppDispatch();
  const state = useAppSelector((s) => s.deliverables.unsubscribe);

  return (
    <UnsubscribePage
      title="Stop new-version e-mails"
      intro="Turn off the e-mails about new versions of this product. You keep the product and its downloads."
      button="Stop these e-mails"
      state={state}
      onUnsubscribe={(token) => void dispatch(unsubscribeVersionMails(token))}
      done={(data) => (
        <>
          {data.message} Your downloads stay in your{' '}
          <Link to="/library" className="text-brand-300 underline underline-offset-2">
            library
          </Link>
          .
        </>
      )}
    />
  );
}
