// Trend Rider {{version}}: a trend-following cBot. It trades in the direction of the slow EMA when the
// fast one crosses it, with an ATR stop, a trailing stop, and no new trades around news hours.
// Algo Harbor, sold on Tradeshelf.
// Changes
// {{changelog}}
using System;
using cAlgo.API;
using cAlgo.API.Indicators;

namespace cAlgo.Robots
{
    [Robot(AccessRights = AccessRights.None, TimeZone = TimeZones.UTC)]
    public class TrendRider : Robot
    {
        [Parameter("Risk per trade (%)", DefaultValue = 0.5, MinValue = 0.1, MaxValue = 3)]
        public double RiskPercent { get; set; }

        [Parameter("Fast EMA", DefaultValue = 20)]
        public int FastPeriod { get; set; }

        [Parameter("Slow EMA", DefaultValue = 100)]
        public int SlowPeriod { get; set; }

        [Parameter("ATR stop multiple", DefaultValue = 2.0)]
        public double AtrMultiple { get; set; }

        [Parameter("News pause hours (UTC, comma-separated)", DefaultValue = "12,14")]
        public string NewsHours { get; set; }

        private ExponentialMovingAverage fast, slow;
        private AverageTrueRange atr;
        private const string Label = "TrendRider";

        protected override void OnStart()
        {
            fast = Indicators.ExponentialMovingAverage(Bars.ClosePrices, FastPeriod);
            slow = Indicators.ExponentialMovingAverage(Bars.ClosePrices, SlowPeriod);
            atr = Indicators.AverageTrueRange(14, MovingAverageType.Exponential);
        }

        private bool NearNews()
        {
            foreach (var hour in NewsHours.Split(','))
                if (int.TryParse(hour.Trim(), out var h) && Math.Abs(Server.Time.Hour - h) < 1) return true;
            return false;
        }

        protected override void OnBar()
        {
            if (Positions.Find(Label, SymbolName) != null || NearNews()) return;
            double stopPips = atr.Result.LastValue * AtrMultiple / Symbol.PipSize;
            double volume = Symbol.VolumeForProportionalRisk(ProportionalAmountType.Balance, RiskPercent, stopPips);
            if (fast.Result.HasCrossedAbove(slow.Result, 0))
                ExecuteMarketOrder(TradeType.Buy, SymbolName, volume, Label, stopPips, null, null, true);
            else if (fast.Result.HasCrossedBelow(slow.Result, 0))
                ExecuteMarketOrder(TradeType.Sell, SymbolName, volume, Label, stopPips, null, null, true);
        }
    }
}
