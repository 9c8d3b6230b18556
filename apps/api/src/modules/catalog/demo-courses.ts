// Data, not logic: the outline of every demo course. The course seed builds its modules and lessons
// from it, and the product's description and cover picture count from it, so a demo course's pages
// say what it holds (issue 27).

/** A lesson: its title and what it says (the text of a reading, the notes under a video). */
export type DemoLesson = readonly [title: string, body: string];
export interface DemoModule {
  title: string;
  lessons: readonly DemoLesson[];
}

/**
 * What each lesson is follows from its place in the course (the seed's rule): the first is a free
 * preview video, the second a video with the worksheet, the last a video that opens some days after
 * enrolment, and between them readings and videos take turns.
 */
export type DemoLessonRole = 'preview' | 'worksheet' | 'reading' | 'video' | 'drip';

export function demoLessonRole(index: number, count: number): DemoLessonRole {
  if (index === 0) return 'preview';
  if (index === count - 1) return 'drip';
  if (index === 1) return 'worksheet';
  return index % 2 === 0 ? 'reading' : 'video';
}

const outlines: Record<string, readonly DemoModule[]> = {
  'Momentum Trading Masterclass': [
    {
      title: 'Getting started',
      lessons: [
        [
          'Welcome and how the course works',
          'What the masterclass covers, how the lessons build on each other and how to practise between them.',
        ],
        [
          'Reading momentum on the chart',
          'Compare each swing with the one before it: speed, not direction, is what fades first.',
        ],
      ],
    },
    {
      title: 'Divergence',
      lessons: [
        [
          'Regular and hidden divergence',
          'Regular divergence warns that a trend is tiring; hidden divergence says a pullback inside it is ending. Mark both on a daily chart before you look at a lower timeframe.',
        ],
        [
          'Divergence across timeframes',
          'A divergence on the hourly chart means little against a strong daily trend: check the higher timeframe first.',
        ],
      ],
    },
    {
      title: 'Putting it to work',
      lessons: [
        [
          'Position sizing checklist',
          'Risk a fixed share of the account per trade. Size = risk ÷ distance to the stop. Write the numbers down before you enter.',
        ],
        ['Live trade review', 'A trade from plan to exit, with what went right and what did not.'],
      ],
    },
  ],
  'Order Flow Foundations': [
    {
      title: 'The auction',
      lessons: [
        [
          'How an auction market moves',
          'Price moves to find buyers and sellers; value is where it spends time.',
        ],
        [
          'Reading a footprint bar',
          'Bid volume on the left, ask volume on the right: find the imbalances first.',
        ],
        [
          'Delta and what it hides',
          'Delta is aggressive buying minus aggressive selling. A bar can close up on negative delta when passive buyers absorb the selling: note where that happens.',
        ],
      ],
    },
    {
      title: 'Trading the flow',
      lessons: [
        [
          'Absorption at key levels',
          'Large passive orders that hold a level while delta runs against them.',
        ],
        [
          'A session read from the open',
          'One ES session read bar by bar, from the initial balance to the close.',
        ],
      ],
    },
  ],
  'Selling Premium the Right Way': [
    {
      title: 'Why premium sellers win and lose',
      lessons: [
        [
          'Implied versus realised volatility',
          'Premium selling earns the gap between the volatility priced in and the volatility that shows up.',
        ],
        [
          'Choosing strikes by delta',
          'A 16-delta strike sits about one standard deviation away: the worksheet walks through the numbers.',
        ],
      ],
    },
    {
      title: 'Managing the position',
      lessons: [
        [
          'Taking winners at half the credit',
          'Closing at 50 % of the maximum profit frees the capital and cuts the time exposed to a move against you. Set the closing order when you open.',
        ],
        [
          'Rolling a tested spread',
          'Roll for a credit or not at all: a trade adjustment walked through on a live chain.',
        ],
      ],
    },
  ],
  'Crypto Swing Trading 101': [
    {
      title: 'Market structure',
      lessons: [
        [
          'Highs, lows and the trend',
          'A trend is a series of higher highs and higher lows; one broken low is a warning, two are a change.',
        ],
        [
          'Funding and open interest',
          'How crowded a move is, read from perpetual funding and open interest.',
        ],
        [
          'Sizing for crypto volatility',
          'Crypto moves three to five times as far as large-cap stocks: size from the distance to the stop, never from conviction.',
        ],
      ],
    },
    {
      title: 'Your journal',
      lessons: [
        [
          'Journaling a swing trade',
          'The five fields that make a journal useful: setup, entry, stop, exit and why.',
        ],
        ['Weekly review', 'Reading a month of journal entries for the mistake that repeats.'],
      ],
    },
  ],
  'Chart Reading Fundamentals': [
    {
      title: 'Candles and levels',
      lessons: [
        [
          'What a candle tells you',
          'Open, high, low and close: a candle is a fight between buyers and sellers in one period.',
        ],
        [
          'Support and resistance',
          'Levels are areas where price turned before; mark them from the higher timeframe down.',
        ],
      ],
    },
    {
      title: 'Trend and volume',
      lessons: [
        [
          'Reading volume with price',
          'A breakout on rising volume has buyers behind it; one on falling volume often fails. Compare each breakout bar with the twenty before it.',
        ],
        [
          'A chart read from start to finish',
          'One daily chart read from trend to levels to volume, the way you will read every chart.',
        ],
      ],
    },
  ],
  'Building Your Trading Plan': [
    {
      title: 'What goes in a plan',
      lessons: [
        [
          'Why a written plan',
          'A plan decides before the market opens, so you do not decide under pressure.',
        ],
        [
          'Markets, timeframes and hours',
          'Pick what you trade and when, around the hours you really have.',
        ],
        [
          'Entry and exit rules',
          'Every rule must be one you can check on a chart: "price closes above the 20-day high", not "strong momentum".',
        ],
      ],
    },
    {
      title: 'Testing and following it',
      lessons: [
        [
          'Testing the plan on past charts',
          'Fifty trades on past charts, logged as if they were live.',
        ],
        ['Your first month with the plan', 'What to review each week and when to change a rule.'],
      ],
    },
  ],
  'Risk Management Bootcamp': [
    {
      title: 'Sizing',
      lessons: [
        [
          'Risk per trade',
          'Decide the share of the account one trade may lose before anything else.',
        ],
        [
          'Position size from the stop',
          'Size = risk ÷ distance to the stop: the worksheet has the formula for stocks, futures and forex.',
        ],
        [
          'R-multiples',
          'Measure each result in units of the risk you took: a +2R winner and a −1R loser say more than dollar amounts.',
        ],
      ],
    },
    {
      title: 'Drawdowns',
      lessons: [
        ['How drawdowns compound', 'Losing 20 % needs 25 % to recover; losing 50 % needs 100 %.'],
        [
          'Your daily loss limit',
          'Setting a daily stop and what to do the morning after it is hit.',
        ],
      ],
    },
  ],
  'Swing Trading Setups': [
    {
      title: 'Trend setups',
      lessons: [
        [
          'How the setups are taught',
          'Each setup comes with its entry, its stop and its target, shown on real charts.',
        ],
        [
          'The pullback to the 20-day average',
          'A strong trend, a pullback on light volume and an entry as it turns.',
        ],
        [
          'The flat-base breakout',
          'A stock that moves sideways for three weeks or more in a tight range, then closes above it on rising volume. The stop goes below the base.',
        ],
      ],
    },
    {
      title: 'Reversal setups',
      lessons: [
        [
          'The failed breakdown',
          'Price breaks a level, fails to follow through and reclaims it: the trapped sellers fuel the move.',
        ],
        [
          'Putting a setup on your watchlist',
          'Scanning for the setups each evening and writing the orders for the next day.',
        ],
      ],
    },
  ],
  'Trading Psychology Deep Dive': [
    {
      title: 'What goes wrong',
      lessons: [
        [
          'Tilt, FOMO and revenge trades',
          'The three patterns behind most blown accounts, and the signs that one is starting.',
        ],
        [
          'The pre-trade checklist',
          'Five questions to answer before every order; the worksheet is the checklist.',
        ],
      ],
    },
    {
      title: 'Building discipline',
      lessons: [
        [
          'Journaling emotions',
          'Next to each trade, write how you felt before and after it. After twenty trades, the entries written when you felt rushed tell you when to step away.',
        ],
        [
          'A week of practice',
          'A routine for a week of trading with the checklist and the journal.',
        ],
      ],
    },
  ],
  'Reading the Tape': [
    {
      title: 'Time and sales',
      lessons: [
        [
          'What the tape shows',
          'Every print with its size and side: the tape shows what traders do, not what they say.',
        ],
        [
          'Level 2 and the inside',
          'Bids and offers stacked by size, and what changes when a large one appears.',
        ],
        [
          'Small-cap runners',
          'Low-float stocks move on thin books: a few large orders move the price. Watch for the offer that refills after every print.',
        ],
      ],
    },
    {
      title: 'Trading it live',
      lessons: [
        [
          'Spotting a fake order',
          'Large orders that vanish before they are hit, and why they are there.',
        ],
        ['A morning on the tape', 'A pre-market gapper traded from the open, read from the tape.'],
      ],
    },
  ],
};

/** A course product's outline; a course with none of its own gets the first one. */
export function demoCourseOutline(title: string): readonly DemoModule[] {
  return outlines[title] ?? outlines['Momentum Trading Masterclass']!;
}

/** Modules and lessons in an outline, as its pages count them. */
export function demoCourseCounts(outline: readonly DemoModule[]): {
  modules: number;
  lessons: number;
} {
  return {
    modules: outline.length,
    lessons: outline.reduce((sum, m) => sum + m.lessons.length, 0),
  };
}
