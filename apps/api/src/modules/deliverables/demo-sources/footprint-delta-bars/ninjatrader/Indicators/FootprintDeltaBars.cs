// Footprint Delta Bars {{version}}: bid/ask volume per price, bar delta, stacked imbalances and
// absorption markers. Needs tick replay (Tools → Options → Market data → Show Tick Replay).
// Orderflow Pro, sold on Tradeshelf.
// Changes
// {{changelog}}
#region Using declarations
using System;
using System.ComponentModel.DataAnnotations;
using System.Collections.Generic;
using System.Windows.Media;
using NinjaTrader.Data;
using NinjaTrader.NinjaScript.DrawingTools;
using NinjaTrader.Gui;
#endregion

namespace NinjaTrader.NinjaScript.Indicators.OrderflowPro
{
    public class FootprintDeltaBars : Indicator
    {
        private readonly Dictionary<double, long[]> levels = new Dictionary<double, long[]>();

        [NinjaScriptProperty]
        [Display(Name = "Imbalance ratio", Order = 1, GroupName = "Footprint")]
        public double ImbalanceRatio { get; set; }

        [NinjaScriptProperty]
        [Display(Name = "Stacked imbalances", Order = 2, GroupName = "Footprint")]
        public int StackedCount { get; set; }

        protected override void OnStateChange()
        {
            if (State == State.SetDefaults)
            {
                Name = "Footprint Delta Bars";
                Description = "Bid/ask footprint with delta and imbalance stacking. v{{version}}";
                IsOverlay = true;
                Calculate = Calculate.OnEachTick;
                ImbalanceRatio = 3.0;
                StackedCount = 3;
                AddPlot(Brushes.Transparent, "Delta");
            }
        }

        protected override void OnMarketData(MarketDataEventArgs e)
        {
            if (e.MarketDataType != MarketDataType.Last) return;
            if (!levels.TryGetValue(e.Price, out var v)) levels[e.Price] = v = new long[2];
            if (e.Price >= e.Ask) v[1] += e.Volume; else if (e.Price <= e.Bid) v[0] += e.Volume;
        }

        protected override void OnBarUpdate()
        {
            if (!IsFirstTickOfBar || CurrentBar < 1) return;
            long delta = 0;
            int stacked = 0;
            double previousBid = 0;
            foreach (var kv in new SortedDictionary<double, long[]>(levels))
            {
                delta += kv.Value[1] - kv.Value[0];
                // Diagonal imbalance: ask volume at a price against bid volume one tick lower.
                bool buyImbalance = previousBid > 0 && kv.Value[1] >= ImbalanceRatio * previousBid;
                stacked = buyImbalance ? stacked + 1 : 0;
                if (stacked == StackedCount)
                    Draw.ArrowUp(this, "Stack" + CurrentBar + kv.Key, false, 1, kv.Key, Brushes.LimeGreen);
                previousBid = kv.Value[0];
            }
            Values[0][1] = delta;
            Draw.Text(this, "Delta" + CurrentBar, delta.ToString("+#;-#;0"), 1, Low[1] - 2 * TickSize,
                delta >= 0 ? Brushes.LimeGreen : Brushes.Tomato);
            // Absorption: heavy volume on one side with the bar closing against it.
            if (Math.Abs(delta) > 0 && Math.Sign(delta) != Math.Sign(Close[1] - Open[1]))
                Draw.Dot(this, "Absorb" + CurrentBar, false, 1, delta > 0 ? High[1] : Low[1], Brushes.Orange);
            levels.Clear();
        }
    }
}
