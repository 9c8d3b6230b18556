/**
 * Small line icons drawn as inline SVG, the header's shape (20-unit box, `currentColor` stroke,
 * hidden from assistive tech): an emoji renders as an empty box where no emoji font is installed.
 */
export function LockIcon({ className = 'h-3 w-3' }: { className?: string }) {
  return (
    <svg aria-hidden data-icon="lock" viewBox="0 0 20 20" fill="none" className={className}>
      <rect x="4" y="9" width="12" height="8.5" rx="1.75" stroke="currentColor" strokeWidth="2" />
      <path d="M6.75 9V6.5a3.25 3.25 0 0 1 6.5 0V9" stroke="currentColor" strokeWidth="2" />
    </svg>
  );
}
