import { RequireAuth } from '../components/require-auth.tsx';
import { DiscordCallback } from '../features/discord/callback.tsx';
import { pageMeta } from '../lib/seo.ts';

export const meta = () => [
  ...pageMeta('Connecting Discord'),
  { name: 'robots', content: 'noindex' },
];

export default function DiscordAuthCallback() {
  return (
    <RequireAuth>
      <DiscordCallback />
    </RequireAuth>
  );
}
