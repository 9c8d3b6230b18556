// Absorption Scanner {{version}}: add it as a column in a Market Analyzer holding your futures list;
// it shows where large passive orders soak up aggressive volume without price moving.
// Orderflow Pro, sold on Tradeshelf.
// Changes
// {{changelog}}
#region Using declarations
using System;
using System.ComponentModel.DataAnnotations;
using System.Windows.Media;
using NinjaTrader.Data;
using NinjaTrader.Gui;
#endregion

namespace NinjaTrader.NinjaScript.Indicators.OrderflowPro
{
    public class AbsorptionScanner : Indicator
    {
        private double aggressive, low = double.MaxValue, high = double.MinValue;

        [NinjaScriptProperty]
        [Display(Name = "Minimum contracts", Order = 1, GroupName = "Scan")]
        public int MinimumContracts { get; set; }

        [NinjaScriptProperty]
        [Display(Name = "Maximum ticks moved", Order = 2, GroupName = "Scan")]
        public int MaximumTicks { get; set; }

        protected override void OnStateChange()
        {
            if (State == State.SetDefaults)
            {
                Name = "Absorption Scanner";
                Description = "Absorption score per instrument for the Market Analyzer. v{{version}}";
                Calculate = Calculate.OnEachTick;
                MinimumContracts = 400;
                MaximumTicks = 2;
                // 1 = absorbing bids (buyers soak up selling), -1 = absorbing offers, 0 = nothing.
                AddPlot(Brushes.Orange, "Absorption");
            }
        }

        protected override void OnMarketData(MarketDataEventArgs e)
        {
            if (e.MarketDataType != MarketDataType.Last) return;
            aggressive += e.Price <= e.Bid ? -e.Volume : e.Price >= e.Ask ? e.Volume : 0;
            low = Math.Min(low, e.Price);
            high = Math.Max(high, e.Price);
        }

        protected override void OnBarUpdate()
        {
            bool held = (high - low) <= MaximumTicks * TickSize;
            Value[0] = held && Math.Abs(aggressive) >= MinimumContracts ? -Math.Sign(aggressive) : 0;
            if (IsFirstTickOfBar) { aggressive = 0; low = double.MaxValue; high = double.MinValue; }
        }
    }
}
