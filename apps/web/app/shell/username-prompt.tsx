import { lazy, useEffect } from 'react';
import { clearUpdateStatus } from '../features/users/slice.ts';
import { useAppDispatch, useAppSelector } from '../lib/hooks.ts';
import { useToast } from '../components/toasts.tsx';

/** docs/product.md#username-prompt: shown when logged in, the profile loaded and it has no username. */
export function useUsernameRequired(): boolean {
  return useAppSelector(
    (s) =>
      s.auth.isLoggedIn &&
      s.user.profile.status === 'success' &&
      (s.user.profile.data?.username ?? '') === '',
  );
}

/** The drawer itself, fetched the first time it is needed (root renders it inside Suspense). */
export const UsernamePrompt = lazy(() =>
  import('./username-dialog.tsx').then((m) => ({ default: m.UsernamePrompt })),
);

/**
 * Announces a successful username update. Lives in the always-mounted shell, because a success
 * unmounts the prompt in the same render.
 */
export function ProfileUpdateNotifier() {
  const dispatch = useAppDispatch();
  const toast = useToast();
  const update = useAppSelector((s) => s.user.updateProfile);
  useEffect(() => {
    if (update.outcome === 'success' && update.message) {
      toast(update.message);
      dispatch(clearUpdateStatus());
    }
  }, [dispatch, toast, update.outcome, update.message]);
  return null;
}
