import { Link } from 'react-router';

/** Server-rendered policy pages, linked from every page (and the error pages). */
export const footerLinks = [
  ['/contact', 'Contact'],
  ['/terms', 'Terms'],
  ['/privacy', 'Privacy'],
  ['/refund-policy', 'Refund policy'],
  ['/risk-disclosure', 'Risk disclosure'],
] as const;

export function Footer() {
  return (
    <footer className="border-t border-ink-800 px-4 py-8 text-sm text-slate-400 print:hidden">
      <div className="mx-auto flex max-w-6xl flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <nav aria-label="Footer">
          <ul className="flex flex-wrap gap-x-5 gap-y-2">
            {footerLinks.map(([to, label]) => (
              <li key={to}>
                <Link to={to} className="text-slate-300 hover:text-white hover:underline">
                  {label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <p className="max-w-md text-xs sm:text-right">
          © {new Date().getFullYear()} Tradeshelf. Trading involves substantial risk of loss. Tools
          and communities sold here are not financial advice and do not guarantee profits.
        </p>
      </div>
    </footer>
  );
}
