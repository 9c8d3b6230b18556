// Data, not logic: what each demo product delivers (issue 29). Every demo product that runs on
// MetaTrader, NinjaTrader, cTrader, TradeStation or thinkorswim, and every demo app, gets a file (or
// a thinkorswim link) per platform it lists, in versions with release notes, and a set-up guide.
// The files are built from `demo-sources/` by `demo-render.ts` (`npm run demo:files`); a version's
// download is named after the last part of its `file` path. What cannot be built here is said so:
// MetaTrader gets MQL source to compile (F7) rather than .ex4/.ex5, cTrader the .cs source rather
// than a compiled .algo, TradeStation EasyLanguage text rather than an .eld.
import type { DeliverablePlatform } from '@tradeshelf/contract';
import type { DemoDelivery, DemoVersion } from './demo-shape.ts';

/** [version, days before the seed, release notes]: oldest first. */
type Release = [string, number, string];

/** A platform's versions, each a file at `<product>/<platform>-<version>/<name>`. */
function files(
  product: string,
  platform: DeliverablePlatform,
  name: string | ((version: string) => string),
  releases: Release[],
): DemoVersion[] {
  return releases.map(([version, releasedDaysAgo, notes]) => ({
    platform,
    version,
    notes,
    releasedDaysAgo,
    file: `${product}/${platform}-${version}/${typeof name === 'string' ? name : name(version)}`,
  }));
}

/** thinkorswim versions: each a shared-item link. */
function links(releases: Array<[...Release, string]>): DemoVersion[] {
  return releases.map(([version, releasedDaysAgo, notes, link]) => ({
    platform: 'thinkorswim',
    version,
    notes,
    releasedDaysAgo,
    link,
  }));
}

// ---- Set-up guides, one section per platform -------------------------------------------------

function metaTrader(
  n: 4 | 5,
  o: { name: string; folder: 'Indicators' | 'Experts'; zip?: string; presets?: boolean },
): string {
  const mql = `MQL${n}`;
  const ex = `.ex${n}`;
  const ea = o.folder === 'Experts';
  const steps = [
    o.zip
      ? `Download **${o.zip}** from your library.`
      : `Download **${o.name}.mq${n}** from your library.`,
    o.zip
      ? `In MetaTrader ${n} choose **File → Open Data Folder** and unzip the archive there: it puts **${mql}/${o.folder}/${o.name}.mq${n}**${o.presets ? ` and its presets in **${mql}/Presets**` : ''} where MetaTrader looks for them.`
      : `In MetaTrader ${n} choose **File → Open Data Folder**, open **${mql} → ${o.folder}** and copy the file there.`,
    `Press **F4** to open MetaEditor, open **${o.name}.mq${n}** from its Navigator and press **F7** (Compile). It ends with "0 errors" and writes **${o.name}${ex}**, the file MetaTrader runs. (This download is the source code, so you compile it once; compiled ${ex} files cannot be built outside MetaEditor.)`,
    `Back in MetaTrader ${n}, open the Navigator (**Ctrl+N**), right-click **${ea ? 'Expert Advisors' : 'Indicators'}** and choose **Refresh**. Drag **${o.name}** onto a chart.`,
    ...(ea
      ? [
          n === 4
            ? 'On the **Common** tab tick **Allow live trading**, and switch **AutoTrading** on in the toolbar.'
            : 'On the **Common** tab tick **Allow Algo Trading**, and switch **Algo Trading** on in the toolbar.',
        ]
      : []),
    ...(o.presets
      ? ['To use a preset, open the **Inputs** tab, click **Load** and choose a `.set` file.']
      : []),
  ];
  return `## MetaTrader ${n}\n\n${steps.map((s, i) => `${i + 1}. ${s}`).join('\n')}\n\nFor a new version, copy the new file over the old one, compile again and re-attach it.`;
}

function ninjaTrader(o: {
  zip: string;
  name: string;
  use: 'chart' | 'analyzer' | 'addon';
  tickReplay?: boolean;
}): string {
  const use = {
    chart: `Open a chart, right-click it, choose **Indicators…**, find **${o.name}** in the list and click **Add**.`,
    analyzer: `Choose **New → Market Analyzer**, add your instrument list, then right-click → **Columns…**, add **${o.name}** as an indicator column.`,
    addon: `In the Control Center choose **New → ${o.name}**.`,
  }[o.use];
  return [
    '## NinjaTrader 8',
    [
      `1. Download **${o.zip}** from your library. Keep it zipped.`,
      '2. In the Control Center choose **Tools → Import → NinjaScript Add-On…** and pick the file. NinjaTrader compiles it and tells you when the import is done.',
      `3. ${use}`,
      ...(o.tickReplay
        ? [
            '4. It reads every trade, so switch on **Tools → Options → Market data → Show Tick Replay**, and tick **Tick Replay** in the chart’s Data Series window.',
          ]
        : []),
    ].join('\n'),
    'A new version imports the same way and replaces the old one.',
  ].join('\n\n');
}

function cTrader(o: { zip: string; name: string; kind: 'cBot' | 'indicator' }): string {
  const cbot = o.kind === 'cBot';
  return `## cTrader

1. Download **${o.zip}** from your library and unzip it: it holds **${o.name}.cs**, the source.
2. In cTrader open **Automate**, choose **${cbot ? 'cBots' : 'Indicators'} → New**, name it **${o.name}** and replace the code with the contents of ${o.name}.cs.
3. Click **Build** (Ctrl+B). cTrader builds the .algo file from the source. (A compiled .algo cannot be made outside cTrader, so the demo ships the source.)
4. ${cbot ? 'Click **Add instance**, pick the symbol and timeframe, set the parameters and press **Start**.' : `On a chart choose **Indicators → Custom → ${o.name}**.`}`;
}

function tradeStation(o: { zip: string; name: string; kind: 'Indicator' | 'Strategy' }): string {
  return `## TradeStation

1. Download **${o.zip}** from your library and unzip it: it holds **${o.name}.txt**, the EasyLanguage source.
2. Open the **TradeStation Development Environment**, choose **File → New → ${o.kind}**, name it **${o.name}** and paste the text.
3. Press **Verify** (F3).
4. On a chart choose **Studies → Add ${o.kind === 'Strategy' ? 'Strategy' : 'Study'}…** and pick **${o.name}**.`;
}

function thinkorswim(o: { name: string; kind: 'study' | 'scan' }): string {
  const add =
    o.kind === 'study'
      ? `On a chart choose **Studies → Edit studies…**, find **${o.name}** and click **Add selected**.`
      : `In the **Scan** tab open **Stock Hacker**, click the menu beside the scan name → **Load scan query** and pick **${o.name}**.`;
  return `## thinkorswim

1. Copy the shared link (https://tos.mx/…) from your library.
2. In thinkorswim choose **Setup → Open shared item…**, paste the link, click **Preview** and then **Import**.
3. ${add}

A new version is a new link: import it the same way and delete the older copy.`;
}

function desktop(o: { zip: string; os: 'Windows' | 'macOS'; settings: string }): string {
  return `## ${o.os}

1. Download **${o.zip}** from your library and unzip it into a folder of its own.
2. Copy your licence key from your library; the app asks for it on first start and activates this computer. Your apps page shows where the key is active and frees a computer you no longer use.
3. The settings are in **${o.settings}** (README.txt in the archive explains each one).`;
}

const guide = (title: string, sections: string[], using: string) =>
  [`# Setting up ${title}`, ...sections, `## Using it\n\n${using}`].join('\n\n');

// ---- The deliveries -----------------------------------------------------------------------------

const deliveries: DemoDelivery[] = [
  {
    title: 'Volume Weighted MACD',
    updatePolicy: 'lifetime',
    guide: guide(
      'Volume Weighted MACD',
      [metaTrader(5, { name: 'VolumeWeightedMACD', folder: 'Indicators' })],
      'It opens in its own window below the chart. The histogram is the MACD of volume-weighted averages, the orange line its signal. On forex it uses tick volume, which is what MetaTrader has.',
    ),
    versions: files('volume-weighted-macd', 'mt5', 'VolumeWeightedMACD.mq5', [
      ['1.0', 420, '- First MetaTrader 5 release.'],
      ['1.1', 210, '- The signal line no longer jumps when you change timeframe.'],
    ]),
  },
  {
    title: 'Market Profile TPO',
    updatePolicy: 'lifetime',
    guide: guide(
      'Market Profile TPO',
      [
        ninjaTrader({
          zip: 'MarketProfileTPO-NT8-<version>.zip',
          name: 'Market Profile TPO',
          use: 'chart',
        }),
      ],
      'Use it on a 30-minute or faster chart of ES, NQ or CL with the exchange’s trading hours. Gold letters are single prints; the blue box is the initial balance (first hour by default).',
    ),
    versions: files('market-profile-tpo', 'ninjatrader', (v) => `MarketProfileTPO-NT8-${v}.zip`, [
      ['3.0', 300, '- Rebuilt for NinjaTrader 8.1.\n- Initial balance length is a setting.'],
      ['3.1', 95, '- Single prints at the session’s edges are no longer marked.'],
      ['3.2', 12, '- Fixed letters overlapping on charts with a short first period.'],
    ]),
  },
  {
    title: 'Footprint Delta Bars',
    updatePolicy: 'year',
    guide: guide(
      'Footprint Delta Bars',
      [
        ninjaTrader({
          zip: 'FootprintDeltaBars-NT8-<version>.zip',
          name: 'Footprint Delta Bars',
          use: 'chart',
          tickReplay: true,
        }),
      ],
      'Delta prints under each bar. Green arrows mark three stacked buy imbalances (ask volume at least three times the bid one tick lower); orange dots mark absorption. Both thresholds are in the indicator’s settings.',
    ),
    versions: files(
      'footprint-delta-bars',
      'ninjatrader',
      (v) => `FootprintDeltaBars-NT8-${v}.zip`,
      [
        ['2.0', 240, '- Stacked imbalances, with the count as a setting.'],
        ['2.1', 30, '- Absorption markers.\n- Delta labels no longer cover the low of the bar.'],
      ],
    ),
  },
  {
    title: 'Volume Profile Sessions',
    updatePolicy: 'lifetime',
    guide: guide(
      'Volume Profile Sessions',
      [
        ninjaTrader({
          zip: 'VolumeProfileSessions-NT8-<version>.zip',
          name: 'Volume Profile Sessions',
          use: 'chart',
        }),
        cTrader({
          zip: 'VolumeProfileSessions-cTrader-<version>.zip',
          name: 'VolumeProfileSessions',
          kind: 'indicator',
        }),
      ],
      'Gold is the point of control, the dotted blue lines the value area (70 % by default). On NinjaTrader it can alert when price comes back inside the value area; on cTrader set the hour your session starts (UTC).',
    ),
    versions: [
      ...files(
        'volume-profile-sessions',
        'ninjatrader',
        (v) => `VolumeProfileSessions-NT8-${v}.zip`,
        [
          ['1.4', 180, '- Value-area percentage is a setting.'],
          ['1.5', 21, '- Alert when price re-enters the value area.'],
        ],
      ),
      ...files(
        'volume-profile-sessions',
        'ctrader',
        (v) => `VolumeProfileSessions-cTrader-${v}.zip`,
        [['1.0', 45, '- First cTrader release: session profile, POC and value area.']],
      ),
    ],
  },
  {
    title: 'Cumulative Delta Divergence',
    updatePolicy: 'year',
    guide: guide(
      'Cumulative Delta Divergence',
      [
        ninjaTrader({
          zip: 'CumulativeDeltaDivergence-NT8-<version>.zip',
          name: 'Cumulative Delta Divergence',
          use: 'chart',
          tickReplay: true,
        }),
      ],
      'Cumulative delta plots in its own panel and resets each session. A red line joins two swing highs where price made a higher high and delta did not; a green line the same for lows.',
    ),
    versions: files(
      'cumulative-delta-divergence',
      'ninjatrader',
      (v) => `CumulativeDeltaDivergence-NT8-${v}.zip`,
      [
        ['1.0', 160, '- First release.'],
        ['1.1', 8, '- Delta resets at the session open instead of midnight.'],
      ],
    ),
  },
  {
    title: 'Absorption Scanner',
    updatePolicy: 'lifetime',
    guide: guide(
      'Absorption Scanner',
      [
        ninjaTrader({
          zip: 'AbsorptionScanner-NT8-<version>.zip',
          name: 'Absorption Scanner',
          use: 'analyzer',
        }),
      ],
      'Load your futures list (up to 40 contracts) in the Market Analyzer. The column shows 1 where bids absorb selling and -1 where offers absorb buying; sort or colour by it. Set the minimum contracts per contract you scan.',
    ),
    versions: files('absorption-scanner', 'ninjatrader', (v) => `AbsorptionScanner-NT8-${v}.zip`, [
      ['2.2', 120, '- Maximum ticks moved is a setting.'],
      ['2.3', 14, '- Readings reset on each bar, so an old signal no longer lingers.'],
    ]),
  },
  {
    title: 'Currency Strength Scanner',
    updatePolicy: 'lifetime',
    guide: guide(
      'Currency Strength Scanner',
      [
        metaTrader(4, { name: 'CurrencyStrength', folder: 'Indicators' }),
        metaTrader(5, { name: 'CurrencyStrength', folder: 'Indicators' }),
      ],
      'Attach it to any one chart. It reads the 28 major pairs, so show them all in Market Watch (right-click → Show All). If your broker adds a suffix to symbols (EURUSD.m), enter it in the inputs.',
    ),
    versions: [
      ...files('currency-strength-scanner', 'mt4', 'CurrencyStrength.mq4', [
        ['4.0', 330, '- Five timeframes in one panel.'],
        ['4.1', 26, '- Works with broker symbol suffixes such as .m and .pro.'],
      ]),
      ...files('currency-strength-scanner', 'mt5', 'CurrencyStrength.mq5', [
        ['4.0', 330, '- Five timeframes in one panel.'],
        ['4.1', 26, '- Works with broker symbol suffixes such as .m and .pro.'],
      ]),
    ],
  },
  {
    title: 'Grid Guardian EA',
    updatePolicy: 'year',
    guide: guide(
      'Grid Guardian EA',
      [
        metaTrader(4, {
          name: 'GridGuardian',
          folder: 'Experts',
          zip: 'GridGuardian-MT4-<version>.zip',
          presets: true,
        }),
        metaTrader(5, {
          name: 'GridGuardian',
          folder: 'Experts',
          zip: 'GridGuardian-MT5-<version>.zip',
          presets: true,
        }),
      ],
      'Start on a demo account with the EURUSD preset on M15. The equity stop closes the whole grid when equity falls 10 % from its peak. MetaTrader 5 pauses around high-impact news from its calendar; MetaTrader 4 has no calendar, so list the day’s news times (GMT) in the inputs. Your licence key binds to your trading account number.',
    ),
    versions: [
      ...files('grid-guardian-ea', 'mt4', (v) => `GridGuardian-MT4-${v}.zip`, [
        ['2.0', 380, '- Equity-based stop for the whole grid.'],
        ['2.1', 150, '- Presets for EURUSD and GBPUSD.'],
        ['2.2', 6, '- The news pause now covers 30 minutes either side of each time you list.'],
      ]),
      ...files('grid-guardian-ea', 'mt5', (v) => `GridGuardian-MT5-${v}.zip`, [
        ['2.1', 150, '- Presets for EURUSD and GBPUSD.'],
        [
          '2.2',
          6,
          '- The news filter reads MetaTrader 5’s economic calendar: no more typing times.',
        ],
      ]),
    ],
  },
  {
    title: 'Session Box Indicator',
    updatePolicy: 'lifetime',
    guide: guide(
      'Session Box Indicator',
      [
        metaTrader(4, { name: 'SessionBox', folder: 'Indicators' }),
        metaTrader(5, { name: 'SessionBox', folder: 'Indicators' }),
      ],
      'Set **Broker time minus GMT** to your broker’s offset (most are +2 in winter, +3 in summer): the boxes then sit on the real Asian, London and New York hours. Dotted lines are the breakout levels, 3 pips outside each box by default.',
    ),
    versions: [
      ...files('session-box-indicator', 'mt4', 'SessionBox.mq4', [
        ['2.3', 260, '- Breakout levels beside each box.'],
        ['2.4', 18, '- Fixed the London box on Sunday-open brokers.'],
      ]),
      ...files('session-box-indicator', 'mt5', 'SessionBox.mq5', [
        ['2.3', 260, '- Breakout levels beside each box.'],
        ['2.4', 18, '- Fixed the London box on Sunday-open brokers.'],
      ]),
    ],
  },
  {
    title: 'London Breakout Alerts',
    updatePolicy: 'lifetime',
    guide: guide(
      'London Breakout Alerts',
      [metaTrader(4, { name: 'LondonBreakoutAlerts', folder: 'Indicators' })],
      'Attach it to each pair you trade. For push alerts, enter your MetaQuotes ID from the MetaTrader mobile app under **Tools → Options → Notifications**; for e-mail, fill in **Tools → Options → Email**. It alerts once a day per pair, when price clears the pre-London range by 2 pips.',
    ),
    versions: files('london-breakout-alerts', 'mt4', 'LondonBreakoutAlerts.mq4', [
      ['1.6', 90, '- E-mail alerts beside push and pop-up.'],
      ['1.7', 4, '- One alert per pair per day, even after MetaTrader restarts.'],
    ]),
  },
  {
    title: 'Harmonic Pattern Finder',
    updatePolicy: 'year',
    guide: guide(
      'Harmonic Pattern Finder',
      [
        metaTrader(4, { name: 'HarmonicPatternFinder', folder: 'Indicators' }),
        metaTrader(5, { name: 'HarmonicPatternFinder', folder: 'Indicators' }),
      ],
      'Gold boxes are potential reversal zones, labelled with the pattern when you hover them. Raise **Bars either side of a swing point** for fewer, larger patterns.',
    ),
    versions: [
      ...files('harmonic-pattern-finder', 'mt4', 'HarmonicPatternFinder.mq4', [
        ['1.2', 200, '- Crab pattern.\n- Alert when price enters a zone.'],
      ]),
      ...files('harmonic-pattern-finder', 'mt5', 'HarmonicPatternFinder.mq5', [
        ['1.2', 200, '- Crab pattern.\n- Alert when price enters a zone.'],
        ['1.3', 35, '- Tolerance on each ratio is a setting (5 % by default).'],
      ]),
    ],
  },
  {
    title: 'Trade Copier Pro',
    updatePolicy: 'lifetime',
    guide: guide(
      'Trade Copier Pro',
      [
        metaTrader(4, { name: 'TradeCopier', folder: 'Experts' }),
        metaTrader(5, { name: 'TradeCopier', folder: 'Experts' }),
      ],
      'Run the terminals on one computer. Attach the copier as **Master** on the account you trade and as **Receiver** on each follower, with the same channel name. Receivers scale lots by **Lot scale** and never exceed **Max lots**. Your key activates on up to 5 trading accounts.',
    ),
    versions: [
      ...files('trade-copier-pro', 'mt4', 'TradeCopier.mq4', [
        ['5.0', 340, '- Lot scaling and a per-trade cap.'],
        ['5.1', 60, '- Receivers close their copy when the master closes.'],
        ['5.2', 2, '- Symbol suffix for brokers that name pairs EURUSD.pro.'],
      ]),
      ...files('trade-copier-pro', 'mt5', 'TradeCopier.mq5', [
        ['5.1', 60, '- Receivers close their copy when the master closes.'],
        ['5.2', 2, '- Symbol suffix for brokers that name pairs EURUSD.pro.'],
      ]),
    ],
  },
  {
    title: 'Compass DCA Bot',
    updatePolicy: 'lifetime',
    guide: guide(
      'Compass DCA Bot',
      [
        desktop({
          zip: 'CompassDCA-<version>-win.zip',
          os: 'Windows',
          settings: 'compass-dca.ini',
        }),
      ],
      'Create an exchange API key with trading allowed and withdrawals off, and put it in compass-dca.ini with your pair, amount and schedule. Safety orders buy more only while price is below your average.',
    ),
    versions: files('compass-dca-bot', 'windows', (v) => `CompassDCA-${v}-win.zip`, [
      ['3.0', 150, '- Bybit support.'],
      ['3.1', 10, '- A monthly spending cap.'],
    ]),
  },
  {
    title: 'ForgeTest Backtester',
    updatePolicy: 'year',
    guide: guide(
      'ForgeTest Backtester',
      [desktop({ zip: 'ForgeTest-<version>-win.zip', os: 'Windows', settings: 'forgetest.ini' })],
      'Point **data.folder** at your tick or minute CSV files, set your commission and slippage, and choose the in-sample and out-of-sample window lengths for walk-forward runs.',
    ),
    versions: files('forgetest-backtester', 'windows', (v) => `ForgeTest-${v}-win.zip`, [
      ['6.2', 280, '- Walk-forward optimisation.'],
      ['6.3', 110, '- Optimises for net profit over drawdown by default.'],
      ['6.4', 16, '- Up to 4 threads on the optimiser.'],
    ]),
  },
  {
    title: 'Edge Journal',
    updatePolicy: 'lifetime',
    guide: guide(
      'Edge Journal',
      [
        desktop({
          zip: 'EdgeJournal-<version>-win.zip',
          os: 'Windows',
          settings: 'import-mapping.csv',
        }),
        desktop({
          zip: 'EdgeJournal-<version>-mac.zip',
          os: 'macOS',
          settings: 'import-mapping.csv',
        }),
      ],
      'Export your fills as CSV from your broker and import them. import-mapping.csv says which columns each broker uses; add a line for a broker that is not listed.',
    ),
    versions: [
      ...files('edge-journal', 'windows', (v) => `EdgeJournal-${v}-win.zip`, [
        ['4.0', 190, '- Tradovate imports.'],
        ['4.1', 22, '- Fees are kept per fill, so net P/L matches your statement.'],
      ]),
      ...files('edge-journal', 'macos', (v) => `EdgeJournal-${v}-mac.zip`, [
        ['4.1', 22, '- First macOS release.'],
      ]),
    ],
  },
  {
    title: 'Position Size Calculator Pro',
    updatePolicy: 'none',
    guide: guide(
      'Position Size Calculator Pro',
      [desktop({ zip: 'SizeCalc-<version>-win.zip', os: 'Windows', settings: 'sizing.ini' })],
      'Set your balance and the share of it you risk per trade in sizing.ini. Press **Ctrl+Alt+S**, type the entry and the stop, and copy the size it gives.',
    ),
    versions: files('position-size-calculator-pro', 'windows', (v) => `SizeCalc-${v}-win.zip`, [
      ['2.0', 75, '- Futures point values for ES, NQ, CL and GC.'],
    ]),
  },
  {
    title: 'Regime Filter',
    updatePolicy: 'lifetime',
    guide: guide(
      'Regime Filter',
      [ninjaTrader({ zip: 'RegimeFilter-NT8-<version>.zip', name: 'Regime Filter', use: 'chart' })],
      'Blue bars trend, grey bars mean-revert, red bars are volatile. Strategies can read the plot (1, 0, -1) as a filter; the Risk Dashboard for NinjaTrader builds on it.',
    ),
    versions: files('regime-filter', 'ninjatrader', (v) => `RegimeFilter-NT8-${v}.zip`, [
      ['1.0', 230, '- First NinjaTrader release.'],
      ['1.1', 40, '- The volatile threshold is an ATR percentile you can set.'],
    ]),
  },
  {
    title: 'Risk Dashboard for NinjaTrader',
    updatePolicy: 'lifetime',
    guide: guide(
      'Risk Dashboard for NinjaTrader',
      [
        ninjaTrader({
          zip: 'RiskDashboard-NT8-<version>.zip',
          name: 'Risk Dashboard',
          use: 'addon',
        }),
      ],
      'It watches every account. After a fill that takes the day’s realised loss past the limit, or the trade count past the cap, it flattens the account and cancels working orders; the lock-out lasts until the next day.',
    ),
    versions: files(
      'risk-dashboard-for-ninjatrader',
      'ninjatrader',
      (v) => `RiskDashboard-NT8-${v}.zip`,
      [
        ['1.2', 170, '- A trade cap beside the loss limit.'],
        ['1.3', 9, '- Working orders are cancelled at lock-out, not only positions closed.'],
      ],
    ),
  },
  {
    title: 'TTM Squeeze Plus',
    updatePolicy: 'lifetime',
    guide: guide(
      'TTM Squeeze Plus',
      [thinkorswim({ name: 'TTMSqueezePlus', kind: 'study' })],
      'Red dots: the squeeze is on; green dots: it has fired. The histogram is momentum; a grey bar means the higher timeframe disagrees.',
    ),
    versions: links([
      ['1.0', 210, '- First release.', 'https://tos.mx/!rT4kq9Wm'],
      [
        '1.1',
        28,
        '- Higher-timeframe confirmation greys out bars against the bigger trend.',
        'https://tos.mx/!Hc82LpXe',
      ],
    ]),
  },
  {
    title: 'Unusual Volume Scanner',
    updatePolicy: 'lifetime',
    guide: guide(
      'Unusual Volume Scanner',
      [thinkorswim({ name: 'UnusualVolumeScanner', kind: 'scan' })],
      'Run it from 9:45 ET. It lists stocks trading three times their average volume for the time of day; add it to a watchlist to have it refresh.',
    ),
    versions: links([
      [
        '2.0',
        60,
        '- Compares volume with the average for the same time of day.',
        'https://tos.mx/!Vu7Pn2Qa',
      ],
    ]),
  },
  {
    title: 'Relative Strength vs SPY',
    updatePolicy: 'lifetime',
    guide: guide(
      'Relative Strength vs SPY',
      [
        thinkorswim({ name: 'RelativeStrengthVsSPY', kind: 'study' }),
        tradeStation({
          zip: 'RelativeStrengthVsSPY-TS-<version>.zip',
          name: 'RelativeStrengthVsSPY',
          kind: 'Indicator',
        }),
      ],
      'The line is the stock against SPY, rebased to 100 a year ago; above its average the stock is leading. On TradeStation, insert SPY as Data2 first (**Format → Insert Symbol**).',
    ),
    versions: [
      ...links([
        ['1.2', 140, '- Sector ranking in the watchlist column.', 'https://tos.mx/!Rs9Ya31K'],
        [
          '1.3',
          19,
          '- Rebased to 100 a year back, not at the chart’s first bar.',
          'https://tos.mx/!Rs3Lm0Wd',
        ],
      ]),
      ...files(
        'relative-strength-vs-spy',
        'tradestation',
        (v) => `RelativeStrengthVsSPY-TS-${v}.zip`,
        [['1.3', 19, '- First TradeStation release.']],
      ),
    ],
  },
  {
    title: 'Dark Pool Print Alerts',
    updatePolicy: 'lifetime',
    guide: guide(
      'Dark Pool Print Alerts',
      [thinkorswim({ name: 'DarkPoolPrints', kind: 'study' })],
      'Add the study to a chart, then right-click a print marker → **Create alert** to be told of the next one. Prints under $1M are left out; change the minimum in the study settings.',
    ),
    versions: links([
      ['1.0', 100, '- First release.', 'https://tos.mx/!Dp5Xk8Rt'],
      ['1.1', 7, '- A minimum print size in dollars.', 'https://tos.mx/!Dp2Nw4Jc'],
    ]),
  },
  {
    title: 'Covered Call Screener',
    updatePolicy: 'lifetime',
    guide: guide(
      'Covered Call Screener',
      [thinkorswim({ name: 'CoveredCallScreener', kind: 'scan' })],
      'Set the scan to **Option** mode. It sorts calls 20 to 45 days out, delta 0.20 to 0.35, by annualised yield on the stock price.',
    ),
    versions: links([['3.0', 50, '- Sorted by annualised yield.', 'https://tos.mx/!Cc6Tq1Zs']]),
  },
  {
    title: 'Trend Rider cBot',
    updatePolicy: 'lifetime',
    guide: guide(
      'Trend Rider cBot',
      [cTrader({ zip: 'TrendRider-cTrader-<version>.zip', name: 'TrendRider', kind: 'cBot' })],
      'Back-test it in Automate first (the Backtesting tab) on H1 for the pair you trade. It risks 0.5 % of the balance per trade by default, trails its ATR stop and opens nothing in the news hours you list (UTC).',
    ),
    versions: files('trend-rider-cbot', 'ctrader', (v) => `TrendRider-cTrader-${v}.zip`, [
      ['1.1', 250, '- ATR stop with trailing.'],
      ['1.2', 85, '- Position size from risk per trade.'],
      ['1.3', 11, '- No new trades in the news hours you list.'],
    ]),
  },
  {
    title: 'Keltner Channel Pro',
    updatePolicy: 'lifetime',
    guide: guide(
      'Keltner Channel Pro',
      [
        cTrader({
          zip: 'KeltnerChannelPro-cTrader-<version>.zip',
          name: 'KeltnerChannelPro',
          kind: 'indicator',
        }),
        metaTrader(5, { name: 'KeltnerChannelPro', folder: 'Indicators' }),
      ],
      'Arrows appear only on the bar that breaks out of a squeeze (Bollinger Bands inside the channel), so a quiet chart shows few of them. Widen the multiplier for fewer, stronger signals.',
    ),
    versions: [
      ...files('keltner-channel-pro', 'ctrader', (v) => `KeltnerChannelPro-cTrader-${v}.zip`, [
        ['2.0', 160, '- Squeeze detection.'],
        ['2.1', 24, '- Arrows only on the bar that leaves the squeeze.'],
      ]),
      ...files('keltner-channel-pro', 'mt5', 'KeltnerChannelPro.mq5', [
        ['2.1', 24, '- First MetaTrader 5 release.'],
      ]),
    ],
  },
  {
    title: 'Multi-Timeframe RSI Dashboard',
    updatePolicy: 'lifetime',
    guide: guide(
      'Multi-Timeframe RSI Dashboard',
      [
        metaTrader(4, { name: 'RsiDashboard', folder: 'Indicators' }),
        metaTrader(5, { name: 'RsiDashboard', folder: 'Indicators' }),
      ],
      'Attach it to one chart with the 28 pairs shown in Market Watch. Red cells are above 70, green below 30; both levels are inputs.',
    ),
    versions: [
      ...files('multi-timeframe-rsi-dashboard', 'mt4', 'RsiDashboard.mq4', [
        ['3.0', 300, '- Nine timeframes, M1 to monthly.'],
        ['3.1', 33, '- Symbol suffix input.'],
      ]),
      ...files('multi-timeframe-rsi-dashboard', 'mt5', 'RsiDashboard.mq5', [
        ['3.0', 300, '- Nine timeframes, M1 to monthly.'],
        ['3.1', 33, '- Symbol suffix input.'],
      ]),
    ],
  },
  {
    title: 'Gold Scalper EA',
    updatePolicy: 'lifetime',
    guide: guide(
      'Gold Scalper EA',
      [
        metaTrader(5, {
          name: 'GoldScalper',
          folder: 'Experts',
          zip: 'GoldScalper-MT5-<version>.zip',
          presets: true,
        }),
      ],
      'Attach it to an XAUUSD M5 chart with the London or New York preset. Each trade has a hard stop; after the day’s losses reach 2 % of the balance it opens nothing until tomorrow. Test it in the Strategy Tester (Ctrl+R) with your broker’s spread first.',
    ),
    versions: files('gold-scalper-ea', 'mt5', (v) => `GoldScalper-MT5-${v}.zip`, [
      ['1.4', 130, '- Daily loss cap.'],
      ['1.5', 5, '- New York preset with a wider stop for the open.'],
    ]),
  },
  {
    title: 'Opening Range Breakout Strategy',
    updatePolicy: 'year',
    guide: guide(
      'Opening Range Breakout Strategy',
      [
        tradeStation({
          zip: 'OpeningRangeBreakout-TS-<version>.zip',
          name: 'OpeningRangeBreakout',
          kind: 'Strategy',
        }),
      ],
      'Use a 5-minute ES, NQ, YM or RTY chart in exchange time. It trades the break of the first 30 minutes once a day, stops at the other side of the range, skips ranges wider than 25 points and is flat by 15:55.',
    ),
    versions: files(
      'opening-range-breakout-strategy',
      'tradestation',
      (v) => `OpeningRangeBreakout-TS-${v}.zip`,
      [
        ['1.0', 270, '- First release.'],
        ['1.1', 17, '- Skips days whose opening range is wider than the maximum.'],
      ],
    ),
  },
  {
    title: 'Supply and Demand Zones',
    updatePolicy: 'lifetime',
    guide: guide(
      'Supply and Demand Zones',
      [
        metaTrader(4, { name: 'SupplyDemandZones', folder: 'Indicators' }),
        metaTrader(5, { name: 'SupplyDemandZones', folder: 'Indicators' }),
      ],
      'Solid zones are fresh; a zone turns dotted after its first touch, when it alerts once. Raise the departure size (in ATRs) to keep only the strongest zones.',
    ),
    versions: [
      ...files('supply-and-demand-zones', 'mt4', 'SupplyDemandZones.mq4', [
        ['2.0', 220, '- First-touch alerts.'],
        ['2.1', 3, '- Zones extend to the current bar.'],
      ]),
      ...files('supply-and-demand-zones', 'mt5', 'SupplyDemandZones.mq5', [
        ['2.0', 220, '- First-touch alerts.'],
        ['2.1', 3, '- Zones extend to the current bar.'],
      ]),
    ],
  },
];

/**
 * The guides name each archive as `Name-<version>.zip`; this puts in the current version's real file
 * name, so a guide never names a file the library does not offer.
 */
function withFileNames(d: DemoDelivery): DemoDelivery {
  const names = d.versions.flatMap((v) => (v.file ? [v.file.split('/').at(-1)!] : []));
  const guide = d.guide.replace(
    /([\w.-]*)<version>([\w.-]*)/g,
    (whole, before: string, after: string) => {
      const current = names.filter((n) => n.startsWith(before) && n.endsWith(after)).at(-1);
      if (!current) throw new Error(`${d.title}: the guide names ${whole}, which no version has`);
      return current;
    },
  );
  return { ...d, guide };
}

export const demoDeliveries: DemoDelivery[] = deliveries.map(withFileNames);
