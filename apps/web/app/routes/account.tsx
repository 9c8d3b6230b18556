import { UserAvatar } from '../components/avatar.tsx';
import { useRef, useState, type ChangeEvent } from 'react';
import { Link } from 'react-router';
import { AFFILIATE_PATH } from '../features/affiliates/index.ts';
import { VENDOR_HOME_PATH } from '../features/workspace/nav.ts';
import { avatarTypes } from '@tradeshelf/contract/client';
import { imageFileProblem } from '../components/upload-control.tsx';
import { RequireAuth } from '../components/require-auth.tsx';
import { useToast } from '../components/toasts.tsx';
import { Alert, Button } from '../components/ui.tsx';
import { TwoFactorSection } from '../features/auth/two-factor.tsx';
import { PasskeysSection } from '../features/auth/passkeys-section.tsx';
import {
  BillingSection,
  DataSection,
  DevicesSection,
  EmailSection,
  UsernameSection,
  useAccountSettings,
} from '../features/account/index.ts';
import { MembershipSection, SavedSearchesSection } from '../features/membership/components.tsx';
import { addVendorRole, uploadAvatar } from '../features/users/api.ts';
import { useAppDispatch, useAppSelector } from '../lib/hooks.ts';
import { pageMeta } from '../lib/seo.ts';
import { Loading } from '../components/screen.tsx';

export const meta = () => pageMeta('Your account');

function AccountPage() {
  const dispatch = useAppDispatch();
  const toast = useToast();
  const profile = useAppSelector((s) => s.user.profile);
  const vendor = useAppSelector((s) => s.user.addVendorRole);
  const avatar = useAppSelector((s) => s.user.avatar);
  const [fileError, setFileError] = useState<string | null>(null);
  const [settings, reloadSettings] = useAccountSettings();
  const [twoFactorOn, setTwoFactorOn] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const user = profile.data;

  const onFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    const problem = imageFileProblem(file);
    setFileError(problem);
    if (problem) return;
    const result = await dispatch(uploadAvatar(file));
    if (uploadAvatar.fulfilled.match(result)) toast('Profile picture updated');
  };

  const becomeVendor = async () => {
    const result = await dispatch(addVendorRole());
    if (addVendorRole.fulfilled.match(result))
      toast('You are now a vendor. Your vendor area is ready.');
  };

  if (profile.status === 'failure')
    return <Alert>{profile.error?.error ?? 'We could not load your profile.'}</Alert>;
  if (!user) {
    return (
      <div className="mx-auto max-w-2xl">
        <Loading label="Loading your account…" />
      </div>
    );
  }
  const isVendor = user.roles.includes('vendor');
  return (
    <div className="mx-auto flex max-w-2xl flex-col gap-6">
      <h1 className="text-2xl font-bold text-white">Your account</h1>
      <section className="flex flex-col gap-4 rounded-2xl border border-ink-700 bg-ink-900 p-6 sm:flex-row sm:items-center">
        <UserAvatar user={user} size={80} alt="Your profile picture" />
        <dl className="grid flex-1 grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm break-words">
          <dt className="text-slate-400">Username</dt>
          <dd className="font-semibold text-white">{user.username || '—'}</dd>
          <dt className="text-slate-400">Email</dt>
          <dd>
            {user.email}{' '}
            {user.emailVerified ? (
              <span className="ml-1 rounded bg-brand-500/20 px-1.5 py-0.5 text-xs text-brand-300">
                verified
              </span>
            ) : (
              <Link
                to={`/activate?email=${encodeURIComponent(user.email)}`}
                className="ml-1 text-xs text-amber-300 underline"
              >
                not verified: activate
              </Link>
            )}
          </dd>
          <dt className="text-slate-400">Roles</dt>
          <dd>{user.roles.join(', ')}</dd>
        </dl>
      </section>
      <section
        aria-labelledby="security-heading"
        className="flex flex-col gap-4 rounded-2xl border border-ink-700 bg-ink-900 p-4 sm:p-6"
      >
        <h2 id="security-heading" className="text-lg font-semibold text-white">
          Sign-in and security
        </h2>
        <p className="text-sm text-slate-300">
          We e-mail you when your password, e-mail address, two-factor settings or passkeys change,
          and when your account is signed in to from a new device.
        </p>
        <Link
          to="/account/password"
          className="self-start text-sm font-semibold text-brand-400 underline underline-offset-2 hover:decoration-2"
        >
          Change password
        </Link>
        <TwoFactorSection onStatus={setTwoFactorOn} />
        <PasskeysSection twoFactor={twoFactorOn} />
      </section>
      <DevicesSection />
      <EmailSection settings={settings} twoFactor={twoFactorOn} onChanged={reloadSettings} />
      <UsernameSection settings={settings} onChanged={reloadSettings} />
      <MembershipSection />
      <SavedSearchesSection />
      <section className="flex flex-col gap-3 rounded-2xl border border-ink-700 bg-ink-900 p-6">
        <h2 className="font-semibold text-white">Profile picture</h2>
        <p className="text-sm text-slate-400">PNG, JPEG or WebP, up to 2 MB.</p>
        {(fileError || avatar.error) && <Alert>{fileError ?? avatar.error?.error}</Alert>}
        <input
          ref={fileInput}
          id="avatar-file"
          type="file"
          // The button below opens it; keyboard and screen-reader users reach it through that button.
          tabIndex={-1}
          aria-label="Choose a profile picture"
          accept={avatarTypes.join(',')}
          className="sr-only"
          onChange={(e) => void onFile(e)}
        />
        <Button
          type="button"
          variant="ghost"
          loading={avatar.status === 'loading'}
          onClick={() => fileInput.current?.click()}
          className="self-start"
        >
          Upload a picture
        </Button>
      </section>

      <section className="flex flex-col gap-3 rounded-2xl border border-ink-700 bg-ink-900 p-6">
        <h2 className="font-semibold text-white">Earn as an affiliate</h2>
        <p className="text-sm text-slate-300">
          Share vendors’ links and earn commission on every payment a buyer you referred makes.
        </p>
        <Link
          to={AFFILIATE_PATH}
          className="self-start text-sm font-semibold text-brand-400 underline underline-offset-2 hover:decoration-2"
        >
          Affiliate dashboard
        </Link>
      </section>
      <section className="flex flex-col gap-3 rounded-2xl border border-ink-700 bg-ink-900 p-6">
        <h2 className="font-semibold text-white">Sell on Tradeshelf</h2>
        {isVendor ? (
          <>
            <p className="text-sm text-slate-300">
              List products, set up delivery and payouts, and follow your sales.
            </p>
            <Link
              to={VENDOR_HOME_PATH}
              className="self-start text-sm font-semibold text-brand-400 underline underline-offset-2 hover:decoration-2"
            >
              Open your vendor workspace
            </Link>
          </>
        ) : (
          <>
            <p className="text-sm text-slate-300">
              List indicators, communities, courses and apps; Stripe pays your share out to your
              bank on your account’s schedule.
            </p>
            {vendor.status === 'failure' && vendor.error && <Alert>{vendor.error.error}</Alert>}
            <Button
              type="button"
              loading={vendor.status === 'loading'}
              onClick={() => void becomeVendor()}
              className="self-start"
            >
              Become a vendor
            </Button>
          </>
        )}
      </section>
      <BillingSection />
      <DataSection twoFactor={twoFactorOn} />
    </div>
  );
}

export default function Account() {
  return (
    <RequireAuth>
      <AccountPage />
    </RequireAuth>
  );
}
