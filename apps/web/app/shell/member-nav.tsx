// The header's links for a signed-in person: loaded once a session exists, so an anonymous first
// visit does not download them (the public pages' JavaScript budget, issue 27).
import { Link } from 'react-router';
import type { User } from '@tradeshelf/contract';
import { UserAvatar } from '../components/avatar.tsx';
import { AFFILIATE_PATH } from '../features/affiliates/index.ts';
import { VENDOR_HOME_PATH } from '../features/workspace/nav.ts';

/** The phone row's icons: 20 × 20 line drawings in the text colour, hidden from `sm` up. */
const ICONS = {
  library: ['M3.5 3v14M7.5 3v14M11 3.75l3.75 13'],
  workspace: [
    'M3.5 8.25 4.75 3.5h10.5l1.25 4.75M3.5 8.25h13M3.5 8.25V16.5h13V8.25M8 16.5v-4.25h4v4.25',
  ],
  orders: ['M5 2.75h10v14.5l-2.5-1.5-2.5 1.5-2.5-1.5-2.5 1.5V2.75Z', 'M7.5 7h5M7.5 10.5h5'],
  logout: ['M8 3.5H4.75v13H8M12.5 6.5 16 10l-3.5 3.5M16 10H8'],
};

function LineIcon({ name }: { name: keyof typeof ICONS }) {
  return (
    <svg
      aria-hidden
      viewBox="0 0 20 20"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.75"
      strokeLinecap="round"
      strokeLinejoin="round"
      className="h-5 w-5 sm:hidden"
    >
      {ICONS[name].map((d) => (
        <path key={d} d={d} />
      ))}
    </svg>
  );
}

const linkBox = 'items-center rounded-lg p-2 font-medium text-slate-200 hover:bg-ink-800';

/** A link that is an icon named for assistive tech on phones, and its word from `sm` up. */
function IconLink({
  to,
  title,
  icon,
  label,
  testId,
}: {
  to: string;
  title: string;
  icon: keyof typeof ICONS;
  label: string;
  testId?: string;
}) {
  return (
    <Link
      to={to}
      title={title}
      data-testid={testId}
      className={`flex ${linkBox} max-[359px]:p-1.5 sm:px-3`}
    >
      <LineIcon name={icon} />
      <span className="max-sm:sr-only">{label}</span>
    </Link>
  );
}

export default function MemberNav({
  isVendor,
  profile,
  onLogout,
}: {
  isVendor: boolean;
  profile: User | null;
  onLogout: () => void;
}) {
  return (
    <>
      {/* Phones: icons with their names for assistive tech, so the row fits 360 px (320 px: tighter). */}
      <IconLink to="/library" title="Library" icon="library" label="Library" />
      {isVendor && (
        // Vendors reach their workspace from every page, phones included (issue 27).
        <IconLink
          to={VENDOR_HOME_PATH}
          title="Vendor workspace"
          icon="workspace"
          label="Workspace"
          testId="header-workspace"
        />
      )}
      <IconLink to="/orders" title="Orders" icon="orders" label="Orders" />
      <Link to="/courses" title="Courses" className={`hidden ${linkBox} sm:flex sm:px-3`}>
        Courses
      </Link>
      {/* Wide screens only: below, the row would squeeze the search box (the library links here). */}
      <Link to="/apps" title="Apps and licences" className={`hidden ${linkBox} sm:px-3 lg:flex`}>
        Apps
      </Link>
      <Link to={AFFILIATE_PATH} title="Affiliate" className={`hidden ${linkBox} lg:flex lg:px-3`}>
        Affiliate
      </Link>
      <Link
        to="/account"
        className="flex items-center gap-2 rounded-lg px-2 py-1.5 font-medium text-slate-200 hover:bg-ink-800 max-[359px]:px-1 sm:px-3"
        data-testid="header-account"
      >
        {profile ? (
          <UserAvatar user={profile} size={32} />
        ) : (
          <span aria-hidden="true" className="h-8 w-8 rounded-full bg-ink-800 sm:hidden" />
        )}
        {/* Phones show the picture alone (named for assistive tech), so the row fits 320 px;
            its place is kept while the profile loads. */}
        <span className="truncate align-bottom max-sm:sr-only sm:inline-block sm:max-w-none">
          {profile?.username || 'Account'}
        </span>
      </Link>
      <button
        type="button"
        onClick={onLogout}
        title="Log out"
        className="flex items-center rounded-lg border border-ink-600 p-2 font-medium hover:bg-ink-800 max-[359px]:p-1.5 sm:px-3"
      >
        <LineIcon name="logout" />
        <span className="max-sm:sr-only">Log out</span>
      </button>
    </>
  );
}
