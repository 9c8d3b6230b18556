import { useParams } from 'react-router';
import { RequireAuth } from '../components/require-auth.tsx';
import { AlertFeedPage } from '../features/alerts/feed-page.tsx';
import { pageMeta } from '../lib/seo.ts';

export const meta = () => [
  ...pageMeta('Alerts', 'The alerts of a feed you hold, live, and how they reach you.'),
  { name: 'robots', content: 'noindex' },
];

export default function LibraryAlertsRoute() {
  const { productId = '' } = useParams();
  return (
    <RequireAuth>
      <AlertFeedPage key={productId} productId={productId} />
    </RequireAuth>
  );
}
