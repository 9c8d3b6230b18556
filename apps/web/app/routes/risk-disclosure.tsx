import { Link } from 'react-router';
import { PolicyPage, Section } from '../legal/policy.tsx';
import { originOf, publicPageHeaders, seo } from '../lib/page-meta.ts';
import type { Route } from './+types/risk-disclosure';

export const headers = publicPageHeaders;
export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    title: 'Trading risk disclosure',
    description:
      'Trading involves substantial risk of loss. Tools, alerts, communities and courses sold on Tradeshelf are not financial advice, and past performance does not predict future results.',
    path: '/risk-disclosure',
    origin: originOf(matches),
  });

export default function RiskDisclosure() {
  return (
    <PolicyPage
      title="Trading risk disclosure"
      intro="Read this before you buy a trading tool or trade with one. Trading can lose you money quickly, and nothing sold here changes that."
    >
      <Section id="risk" title="Trading involves substantial risk of loss">
        <p>
          Stocks, options, futures, forex, crypto-assets, indices and commodities can all fall in
          value, sometimes sharply and without warning. With leverage, margin, futures or short
          options you can lose more than you put in. Trade only with money you can afford to lose.
        </p>
      </Section>

      <Section id="advice" title="Not financial advice">
        <p>
          Indicators, scanners, alerts, signals, communities, courses and apps sold on Tradeshelf
          are tools and education. Neither Tradeshelf nor the vendors know your finances, goals or
          tolerance for risk, and nothing here is a recommendation to buy or sell anything. If you
          need advice for your situation, ask a licensed financial adviser.
        </p>
      </Section>

      <Section id="performance" title="Past performance does not predict future results">
        <ul>
          <li>
            Results shown by a vendor, whether live, backtested, hypothetical or simulated, are no
            promise of what you will get.
          </li>
          <li>
            Backtests and simulations are made with hindsight, without real money at stake, and
            often without the slippage, spreads, commissions and missed fills of real trading.
          </li>
          <li>
            Screenshots, testimonials and community posts show chosen moments, not the whole record.
            We do not audit vendors&apos; performance claims.
          </li>
        </ul>
      </Section>

      <Section id="tools" title="Tools can be wrong, late or down">
        <p>
          An indicator can repaint, a scanner can miss a symbol, an alert can arrive late or not at
          all, and the charting platform or data feed behind them can fail. Check what a tool tells
          you before you act on it, and never rely on one tool alone.
        </p>
      </Section>

      <Section id="communities" title="Communities and courses">
        <p>
          What members, moderators and instructors say is their own opinion. A trade idea shared in
          a community is not advice to you, however confident it sounds.
        </p>
      </Section>

      <Section id="responsibility" title="Your decisions">
        <p>
          You decide what to trade and carry the result. Tradeshelf and its vendors are not liable
          for trading losses; see our <Link to="/terms#liability">terms</Link>.
        </p>
      </Section>
    </PolicyPage>
  );
}
