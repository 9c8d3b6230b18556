// The demo catalogue's reviews (ADR 036): written by demo buyer accounts that exist for it, each
// owning what it reviewed. The demo buyer who signs in reviews nothing, so the specs that buy as
// them find every product unreviewed by them.

/** Usernames of the demo reviewers; their e-mails are `<lowercase>@buyers.tradeshelf.test`. */
export const demoReviewers = [
  'ScalpSam',
  'pip_stacker',
  'TheTapeReader',
  'gamma_gwen',
  'swingwithraj',
  'futures_mo',
  'Kai_Options',
  'lena_trades',
  'RiskFirstRob',
  'cryptonomad88',
  'MarcoFX',
  'orb_hunter',
  'ThetaTina',
  'DeltaDan42',
] as const;
type Reviewer = (typeof demoReviewers)[number];

export interface DemoReview {
  by: Reviewer;
  rating: 1 | 2 | 3 | 4 | 5;
  daysAgo: number;
  text: string;
  /** The vendor's reply, a day after the review. */
  reply?: string;
  /** Edited this many days ago. */
  editedDaysAgo?: number;
}

/** By product title (demo titles are unique). */
export const demoReviews: Record<string, DemoReview[]> = {
  'RSI Divergence Pro': [
    {
      by: 'ScalpSam',
      rating: 5,
      daysAgo: 12,
      text: 'Hidden divergences on the 5-minute ES chart line up well with my entries. It does not repaint once the pivot is confirmed, which was my main worry before buying.',
      reply:
        'Thanks Sam! The pivot confirmation length is adjustable in the settings if you want earlier (but less reliable) marks.',
    },
    {
      by: 'swingwithraj',
      rating: 4,
      daysAgo: 34,
      text: 'Solid on the daily and 4H. On lower timeframes it marks a lot of divergences in strong trends, so I only take the ones in the direction of the 200 EMA.',
    },
    {
      by: 'lena_trades',
      rating: 5,
      daysAgo: 58,
      text: 'Clean, fast and the settings are explained properly. Setup took five minutes on TradingView.',
    },
    {
      by: 'futures_mo',
      rating: 3,
      daysAgo: 81,
      text: "Works as described, but the labels get cluttered on a 1-minute chart. I'd like an option to hide regular divergences and only keep hidden ones.",
      reply: 'Good call. Version 2.4 adds separate toggles for regular and hidden divergences.',
    },
    {
      by: 'DeltaDan42',
      rating: 4,
      daysAgo: 120,
      text: "Paired with the alerts pack it saves me from staring at charts all day. Knocked a star off because the alert text doesn't include the timeframe.",
      editedDaysAgo: 100,
    },
    {
      by: 'MarcoFX',
      rating: 5,
      daysAgo: 160,
      text: "Been using it on EURUSD and GBPJPY for months. Best divergence tool I've tried, and support replies within a day.",
    },
  ],
  'Supertrend Ribbon': [
    {
      by: 'orb_hunter',
      rating: 4,
      daysAgo: 20,
      text: 'The multi-timeframe shading keeps me out of counter-trend trades. A little laggy in fast reversals, which is expected from a supertrend.',
    },
    {
      by: 'pip_stacker',
      rating: 5,
      daysAgo: 66,
      text: 'Simple and it does one thing well. Green ribbon, I look for longs; red, I sit on my hands.',
    },
    {
      by: 'RiskFirstRob',
      rating: 3,
      daysAgo: 140,
      text: 'Nice visuals, but in ranging markets it flips back and forth. Use it with a chop filter.',
    },
  ],
  'Smart Money Concepts Suite': [
    {
      by: 'MarcoFX',
      rating: 4,
      daysAgo: 9,
      text: "Order blocks and fair-value gaps are marked the way I'd draw them by hand. Too many labels by default, but everything can be switched off.",
    },
    {
      by: 'cryptonomad88',
      rating: 5,
      daysAgo: 40,
      text: 'Liquidity sweep markers on BTC 15m are spot on. Finally stopped paying for three separate scripts.',
    },
    {
      by: 'ScalpSam',
      rating: 2,
      daysAgo: 73,
      text: 'Heavy on the chart. My TradingView layout got noticeably slower with all modules on. Useful once trimmed down.',
      reply:
        "Sorry about the slowdown. Turning off historical order blocks (Settings → History) makes it much lighter; we've made that the default in 1.8.",
    },
    {
      by: 'lena_trades',
      rating: 4,
      daysAgo: 101,
      text: 'Break of structure logic is consistent, which matters more to me than pretty boxes.',
    },
  ],
  'Trend Pullback Scanner': [
    {
      by: 'swingwithraj',
      rating: 5,
      daysAgo: 15,
      text: 'Exactly the setups I trade: strong trend, pullback to the 21 EMA, volume coming back. Saves me an hour every evening.',
    },
    {
      by: 'RiskFirstRob',
      rating: 4,
      daysAgo: 49,
      text: 'Good list quality. Would love a filter for earnings dates so I skip names reporting that week.',
    },
    {
      by: 'gamma_gwen',
      rating: 4,
      daysAgo: 95,
      text: 'Finds two or three clean candidates a day on large caps. Works fine on the free TradingView plan.',
    },
  ],
  'Momentum Trading Masterclass': [
    {
      by: 'DeltaDan42',
      rating: 5,
      daysAgo: 25,
      text: 'Module 7 on position sizing alone was worth the price. Clear examples with real charts, not cherry-picked winners.',
    },
    {
      by: 'ThetaTina',
      rating: 4,
      daysAgo: 62,
      text: 'Well structured. Some videos are long; I watched them at 1.5x and the worksheets kept me honest.',
    },
    {
      by: 'futures_mo',
      rating: 5,
      daysAgo: 110,
      text: 'Changed how I think about momentum. The divergence section ties in nicely with the indicator if you own it.',
    },
    {
      by: 'Kai_Options',
      rating: 3,
      daysAgo: 150,
      text: "Good for beginners, a bit basic if you've traded for a few years.",
      reply:
        "Fair point. We're adding an advanced module on intraday momentum this quarter; it will be free for existing students.",
    },
  ],
  'Alpha Edge Traders Discord': [
    {
      by: 'pip_stacker',
      rating: 5,
      daysAgo: 18,
      text: "Daily game plans land before the open and the mods actually answer questions. No hype, no 'to the moon' spam.",
    },
    {
      by: 'orb_hunter',
      rating: 4,
      daysAgo: 55,
      text: 'Voice sessions are great. It gets busy around the open, so questions can get lost.',
    },
    {
      by: 'lena_trades',
      rating: 5,
      daysAgo: 88,
      text: "Best trading community I've paid for. Friendly, focused, and the indicator support channel is gold.",
    },
  ],
  'Footprint Delta Bars': [
    {
      by: 'futures_mo',
      rating: 5,
      daysAgo: 7,
      text: 'Imbalance stacking on NQ footprints is the real deal. The absorption markers helped me stop shorting into big bids.',
    },
    {
      by: 'TheTapeReader',
      rating: 4,
      daysAgo: 44,
      text: 'Accurate bid/ask data. Needs a decent machine when you load a full session of 1-tick data.',
    },
    {
      by: 'DeltaDan42',
      rating: 5,
      daysAgo: 77,
      text: "Cleaner than the footprint in my broker's platform, and the delta colouring is easier to read.",
    },
    {
      by: 'RiskFirstRob',
      rating: 3,
      daysAgo: 130,
      text: 'Powerful but a steep learning curve. Take the Order Flow Foundations course first.',
    },
  ],
  'Market Profile TPO': [
    {
      by: 'futures_mo',
      rating: 4,
      daysAgo: 31,
      text: "Initial balance and single prints are drawn correctly. I'd like a composite profile across several days.",
    },
    {
      by: 'ScalpSam',
      rating: 5,
      daysAgo: 99,
      text: 'Poor highs and lows flagged automatically is a small thing that saves a lot of time.',
    },
  ],
  'Order Flow Foundations': [
    {
      by: 'TheTapeReader',
      rating: 5,
      daysAgo: 22,
      text: 'Explains auction market theory without the mysticism. The replay exercises are excellent.',
    },
    {
      by: 'orb_hunter',
      rating: 4,
      daysAgo: 67,
      text: 'Good course. It assumes you already know how to read a DOM, so beginners may need to pause a lot.',
    },
  ],
  'Orderflow Pit Discord': [
    {
      by: 'futures_mo',
      rating: 5,
      daysAgo: 13,
      text: 'Reading the tape together at the open is great practice. The recap posts are worth the subscription on their own.',
    },
    {
      by: 'DeltaDan42',
      rating: 4,
      daysAgo: 74,
      text: 'Knowledgeable crowd, mostly ES and NQ. Quieter in the afternoon.',
    },
  ],
  'Session Box Indicator': [
    {
      by: 'MarcoFX',
      rating: 5,
      daysAgo: 28,
      text: 'The London breakout levels from the Asian box are exactly what I used to draw by hand every morning.',
    },
    {
      by: 'pip_stacker',
      rating: 4,
      daysAgo: 63,
      text: 'Works on MT4 and TradingView. The time zone setting took a minute to figure out, then it was set and forget.',
      reply:
        'Thanks! Version 1.3 detects broker time on its own, so new installs should not need the setting at all.',
    },
    {
      by: 'lena_trades',
      rating: 4,
      daysAgo: 118,
      text: 'Lightweight and accurate. I would like the New York box to extend to the close.',
    },
  ],
  'Currency Strength Scanner': [
    {
      by: 'MarcoFX',
      rating: 4,
      daysAgo: 36,
      text: 'Pairing the strongest against the weakest currency has improved my trade selection. Refresh is a little slow on the H1 view.',
    },
    {
      by: 'pip_stacker',
      rating: 5,
      daysAgo: 90,
      text: 'I check it before every session. The five-timeframe view makes it obvious when a move is broad-based.',
    },
    {
      by: 'RiskFirstRob',
      rating: 2,
      daysAgo: 145,
      text: 'The numbers are fine, but the ranking jumps around on M5 and I got whipsawed. Better on H4 and daily.',
    },
  ],
  'Grid Guardian EA': [
    {
      by: 'MarcoFX',
      rating: 4,
      daysAgo: 41,
      text: 'The equity stop saved my account during the NFP spike. Conservative settings out of the box, as it should be with a grid.',
    },
    {
      by: 'cryptonomad88',
      rating: 3,
      daysAgo: 85,
      text: "Steady but small gains. Be honest with yourself about grid risk: the EA is careful, markets aren't.",
    },
    {
      by: 'pip_stacker',
      rating: 5,
      daysAgo: 125,
      text: 'The news filter works. Licence activation on my VPS was painless.',
    },
  ],
  'Pip Hunters Lounge': [
    {
      by: 'MarcoFX',
      rating: 4,
      daysAgo: 19,
      text: "Signals come with reasoning and a stop, not just 'buy EURUSD'. The weekly mentoring calls are the highlight.",
    },
    {
      by: 'lena_trades',
      rating: 5,
      daysAgo: 70,
      text: 'Helpful people, no gambling vibes. The trade review channel taught me more than any course.',
    },
  ],
  'Gamma Exposure Levels': [
    {
      by: 'Kai_Options',
      rating: 5,
      daysAgo: 11,
      text: 'Gamma flip and call wall on SPX are updated before the open. My 0DTE entries respect those levels a lot.',
    },
    {
      by: 'ThetaTina',
      rating: 4,
      daysAgo: 47,
      text: 'Useful context for where dealers hedge. Levels update once a day, so intraday shifts are not shown.',
    },
    {
      by: 'gamma_gwen',
      rating: 5,
      daysAgo: 93,
      text: 'Finally a GEX tool that plots straight on my chart. Worth it for anyone trading SPX options.',
    },
  ],
  'Wheel Strategy Scanner': [
    {
      by: 'ThetaTina',
      rating: 5,
      daysAgo: 27,
      text: 'A great list of high IV rank names with liquid options. The earnings-date column keeps me out of trouble.',
    },
    {
      by: 'Kai_Options',
      rating: 4,
      daysAgo: 84,
      text: "Does the job. I'd add a filter for minimum open interest on the strike I'd sell.",
    },
  ],
  'Selling Premium the Right Way': [
    {
      by: 'ThetaTina',
      rating: 5,
      daysAgo: 39,
      text: "The lesson on managing losing credit spreads is the best explanation I've seen. Real trades, losers included.",
    },
    {
      by: 'gamma_gwen',
      rating: 4,
      daysAgo: 76,
      text: 'Clear and practical. A few slides show an old platform, but the content holds up.',
    },
    {
      by: 'Kai_Options',
      rating: 5,
      daysAgo: 133,
      text: 'Iron condor adjustments finally clicked for me. Take it before you sell your first spread.',
    },
  ],
  'Unusual Options Activity Alerts': [
    {
      by: 'Kai_Options',
      rating: 3,
      daysAgo: 21,
      text: 'Alerts are fast, but many sweeps are hedges. You still need to judge the context yourself.',
    },
    {
      by: 'gamma_gwen',
      rating: 4,
      daysAgo: 58,
      text: 'Filtering by size and urgency cuts the noise a lot. Push notifications arrive within seconds.',
    },
  ],
  'Compass DCA Bot': [
    {
      by: 'cryptonomad88',
      rating: 4,
      daysAgo: 16,
      text: "Safety orders are configurable and it hasn't missed a buy in three months on two exchanges.",
    },
    {
      by: 'DeltaDan42',
      rating: 3,
      daysAgo: 88,
      text: 'Does what a DCA bot should. Editing a running bot could be friendlier.',
    },
  ],
  'Altcoin Breakout Scanner': [
    {
      by: 'cryptonomad88',
      rating: 5,
      daysAgo: 24,
      text: 'Volume confirmation filters out most of the fake breakouts. Caught a couple of great moves this month.',
    },
    {
      by: 'orb_hunter',
      rating: 3,
      daysAgo: 61,
      text: "Plenty of hits in a bull market, far fewer when everything bleeds. Not the scanner's fault, but worth knowing.",
    },
    {
      by: 'ScalpSam',
      rating: 4,
      daysAgo: 105,
      text: '300 coins scanned every few minutes without me lifting a finger. Good value.',
    },
  ],
  'Liquidation Heatmap Levels': [
    {
      by: 'cryptonomad88',
      rating: 4,
      daysAgo: 33,
      text: 'Liquidation clusters on BTC often act as magnets. Estimates, not exact, but useful for targets.',
    },
    {
      by: 'futures_mo',
      rating: 4,
      daysAgo: 79,
      text: 'A nice complement to my order flow tools on crypto perps.',
    },
  ],
  'Chart Reading Fundamentals': [
    {
      by: 'orb_hunter',
      rating: 5,
      daysAgo: 30,
      text: "Wish I'd taken this before I bought any indicators. Support, resistance and volume explained properly.",
    },
    {
      by: 'lena_trades',
      rating: 4,
      daysAgo: 72,
      text: 'Perfect for beginners. The worksheets are short and to the point.',
    },
    {
      by: 'swingwithraj',
      rating: 5,
      daysAgo: 115,
      text: 'Recommended it to two friends who are starting out. Clear, calm and no get-rich-quick nonsense.',
    },
  ],
  'Risk Management Bootcamp': [
    {
      by: 'RiskFirstRob',
      rating: 5,
      daysAgo: 14,
      text: 'The R-multiple and drawdown lessons should be mandatory for every new trader. I rebuilt my sizing from scratch after this.',
    },
    {
      by: 'swingwithraj',
      rating: 5,
      daysAgo: 57,
      text: 'Short, practical lessons. The position-sizing spreadsheet alone paid for it.',
    },
    {
      by: 'ScalpSam',
      rating: 4,
      daysAgo: 97,
      text: "Great material. I'd have liked more on futures margin specifically.",
    },
  ],
  'Swing Trading Setups': [
    {
      by: 'swingwithraj',
      rating: 5,
      daysAgo: 26,
      text: 'Seven setups, each with rules for entry, stop and target. I trade three of them now and journal every one.',
    },
    {
      by: 'gamma_gwen',
      rating: 3,
      daysAgo: 102,
      text: 'Good setups, but the examples are mostly from a bull market. I would like more on short setups.',
      reply:
        'Thanks for the honest feedback. Two short-side case studies were added to lesson 6 last month.',
    },
  ],
  'Edge Journal': [
    {
      by: 'RiskFirstRob',
      rating: 5,
      daysAgo: 10,
      text: "Imported fills from two brokers without a hitch. The 'what makes you money' report showed I should stop trading Mondays.",
    },
    {
      by: 'DeltaDan42',
      rating: 4,
      daysAgo: 53,
      text: 'A solid journal with good stats. Tagging trades could be faster with keyboard shortcuts.',
    },
    {
      by: 'TheTapeReader',
      rating: 4,
      daysAgo: 108,
      text: 'Much better than my spreadsheet. Screenshots attach to trades automatically.',
    },
  ],
  'Position Size Calculator Pro': [
    {
      by: 'RiskFirstRob',
      rating: 5,
      daysAgo: 35,
      text: 'A tray app that just works. Type the stop, get the size, place the order. My risk per trade is finally consistent.',
    },
    {
      by: 'MarcoFX',
      rating: 4,
      daysAgo: 91,
      text: 'Handles forex lot sizes and futures contracts correctly. I would like a dark theme.',
    },
  ],
  'Small Cap Gap Scanner': [
    {
      by: 'TheTapeReader',
      rating: 5,
      daysAgo: 8,
      text: 'Float and news filters are exactly what I need at 8 am. My watchlist is ready before the coffee is.',
    },
    {
      by: 'ScalpSam',
      rating: 4,
      daysAgo: 45,
      text: 'A good pre-market list. It occasionally misses a gapper whose news hits after 9:15.',
    },
    {
      by: 'orb_hunter',
      rating: 5,
      daysAgo: 86,
      text: 'Fast, accurate and the float data is current. A core part of my morning routine.',
    },
  ],
  'Tape Readers Discord': [
    {
      by: 'TheTapeReader',
      rating: 5,
      daysAgo: 17,
      text: 'Pre-market prep is thorough and the live calls explain why, not just what.',
    },
    {
      by: 'ScalpSam',
      rating: 3,
      daysAgo: 64,
      text: "Good people, but very fast-paced in the first 30 minutes. Hard to follow if you're new to small caps.",
    },
  ],
  'TTM Squeeze Plus': [
    {
      by: 'gamma_gwen',
      rating: 5,
      daysAgo: 23,
      text: 'Higher-timeframe confirmation cut my false squeeze entries in half. Loads fine in thinkorswim.',
    },
    {
      by: 'swingwithraj',
      rating: 4,
      daysAgo: 96,
      text: 'Works in both thinkorswim and TradingView. The momentum histogram colours are easy to read.',
    },
  ],
  'Gold Scalper EA': [
    {
      by: 'MarcoFX',
      rating: 3,
      daysAgo: 29,
      text: 'Profitable in London hours, flat to slightly negative in New York. The hard stops are reassuring.',
    },
    {
      by: 'pip_stacker',
      rating: 4,
      daysAgo: 82,
      text: 'The session filter keeps it out of thin markets. Backtests matched live results more closely than I expected.',
      editedDaysAgo: 40,
    },
  ],
  'Opening Range Breakout Strategy': [
    {
      by: 'orb_hunter',
      rating: 5,
      daysAgo: 37,
      text: 'A clean ORB implementation for ES with sensible defaults. The walk-forward results look honest.',
    },
    {
      by: 'futures_mo',
      rating: 4,
      daysAgo: 100,
      text: 'Works as described on TradeStation. It needs a slippage setting for realistic backtests.',
    },
  ],
};
