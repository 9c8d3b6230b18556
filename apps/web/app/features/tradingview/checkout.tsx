// The script list and the username field, as the library's views and the product page's checkout
// step (checkout-step.tsx) show them.
import { TRADINGVIEW_USERNAME_INPUT_MAX } from '@tradeshelf/contract/client';
import type { TradingViewScript } from '@tradeshelf/contract';
import { Field } from '../../components/ui.tsx';

export const quietLink =
  'text-sm font-semibold text-brand-400 underline underline-offset-2 hover:decoration-2';

export const USERNAME_HINT = 'Your @username on TradingView (a profile link works too).';

export function ScriptList({ scripts }: { scripts: TradingViewScript[] }) {
  return (
    <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
      {scripts.map((s) => (
        <li key={s.id}>
          <a href={s.url} target="_blank" rel="noopener noreferrer" className={quietLink}>
            {s.name}
            <span className="sr-only"> on TradingView (opens in a new tab)</span>
          </a>
        </li>
      ))}
    </ul>
  );
}

/** The TradingView username input, as checkout and the library's form ask for it. */
export function UsernameField({
  label,
  form,
  hint,
}: {
  label: string;
  form: { value: string; setValue: (value: string) => void; error: string | null };
  hint: string;
}) {
  return (
    <Field
      label={label}
      name="tradingviewUsername"
      value={form.value}
      onChange={(e) => form.setValue(e.target.value)}
      autoComplete="off"
      autoCapitalize="none"
      spellCheck={false}
      maxLength={TRADINGVIEW_USERNAME_INPUT_MAX}
      placeholder="e.g. AlphaTrader_88"
      error={form.error}
      hint={hint}
    />
  );
}
