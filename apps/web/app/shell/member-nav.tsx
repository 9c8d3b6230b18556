// The header's links for a signed-in person: loaded once a session exists, so an anonymous first
// visit does not download them (the public pages' JavaScript budget, issue 27).
import { Link } from 'react-router';
import type { User } from '@tradeshelf/contract';
import { UserAvatar } from '../components/avatar.tsx';
import { AFFILIATE_PATH } from '../features/affiliates/index.ts';
import { VENDOR_HOME_PATH } from '../features/workspace/nav.ts';

function OrdersIcon() {
  return (
    <svg aria-hidden viewBox="0 0 20 20" fill="none" className="h-5 w-5 sm:hidden">
      <path
        d="M5 2.75h10v14.5l-2.5-1.5-2.5 1.5-2.5-1.5-2.5 1.5V2.75Z"
        stroke="currentColor"
        strokeWidth="1.75"
        strokeLinejoin="round"
      />
      <path
        d="M7.5 7h5M7.5 10.5h5"
        stroke="currentColor"
        strokeWidth="1.75"
        strokeLinecap="round"
      />
    </svg>
  );
}

function LibraryIcon() {
  return (
    <svg aria-hidden viewBox="0 0 20 20" fill="none" className="h-5 w-5 sm:hidden">
      <path
        d="M3.5 3v14M7.5 3v14M11 3.75l3.75 13"
        stroke="currentColor"
        strokeWidth="1.75"
        strokeLinecap="round"
      />
    </svg>
  );
}

function WorkspaceIcon() {
  return (
    <svg aria-hidden viewBox="0 0 20 20" fill="none" className="h-5 w-5 sm:hidden">
      <path
        d="M3.5 8.25 4.75 3.5h10.5l1.25 4.75M3.5 8.25h13M3.5 8.25V16.5h13V8.25M8 16.5v-4.25h4v4.25"
        stroke="currentColor"
        strokeWidth="1.75"
        strokeLinejoin="round"
      />
    </svg>
  );
}

function LogoutIcon() {
  return (
    <svg aria-hidden viewBox="0 0 20 20" fill="none" className="h-5 w-5 sm:hidden">
      <path
        d="M8 3.5H4.75v13H8M12.5 6.5 16 10l-3.5 3.5M16 10H8"
        stroke="currentColor"
        strokeWidth="1.75"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
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
      <Link
        to="/library"
        title="Library"
        className="flex items-center rounded-lg p-2 font-medium text-slate-200 hover:bg-ink-800 max-[359px]:p-1.5 sm:px-3"
      >
        <LibraryIcon />
        <span className="max-sm:sr-only">Library</span>
      </Link>
      {isVendor && (
        // Vendors reach their workspace from every page, phones included (issue 27).
        <Link
          to={VENDOR_HOME_PATH}
          title="Vendor workspace"
          data-testid="header-workspace"
          className="flex items-center rounded-lg p-2 font-medium text-slate-200 hover:bg-ink-800 max-[359px]:p-1.5 sm:px-3"
        >
          <WorkspaceIcon />
          <span className="max-sm:sr-only">Workspace</span>
        </Link>
      )}
      <Link
        to="/orders"
        title="Orders"
        className="flex items-center rounded-lg p-2 font-medium text-slate-200 hover:bg-ink-800 max-[359px]:p-1.5 sm:px-3"
      >
        <OrdersIcon />
        <span className="max-sm:sr-only">Orders</span>
      </Link>
      <Link
        to="/courses"
        title="Courses"
        className="hidden items-center rounded-lg p-2 font-medium text-slate-200 hover:bg-ink-800 sm:flex sm:px-3"
      >
        Courses
      </Link>
      {/* Wide screens only: below, the row would squeeze the search box (the library links here). */}
      <Link
        to="/apps"
        title="Apps and licences"
        className="hidden items-center rounded-lg p-2 font-medium text-slate-200 hover:bg-ink-800 sm:px-3 lg:flex"
      >
        Apps
      </Link>
      <Link
        to={AFFILIATE_PATH}
        title="Affiliate"
        className="hidden items-center rounded-lg p-2 font-medium text-slate-200 hover:bg-ink-800 lg:flex lg:px-3"
      >
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
        <LogoutIcon />
        <span className="max-sm:sr-only">Log out</span>
      </button>
    </>
  );
}
