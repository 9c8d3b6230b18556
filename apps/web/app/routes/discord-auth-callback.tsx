import { RequireAuth } from '../components/require-auth.tsx';
import { DiscordCallback } from '../features/discord/callback.tsx';
import { fetchProfile } from '../features/users/index.ts';
import { useAppDispatch } from '../lib/hooks.ts';
import { pageMeta } from '../lib/seo.ts';

export const meta = () => [
  ...pageMeta('Connecting Discord'),
  { name: 'robots', content: 'noindex' },
];

/** The callback with the profile read again once linked (linking fills an empty username). */
export function DiscordCallbackPage() {
  const dispatch = useAppDispatch();
  return <DiscordCallback onLinked={() => void dispatch(fetchProfile())} />;
}

export default function DiscordAuthCallback() {
  return (
    <RequireAuth>
      <DiscordCallbackPage />
    </RequireAuth>
  );
}
