// Market Profile TPO {{version}}: TPO letters per 30-minute period, initial balance, single prints
// and poor highs and lows. Orderflow Pro, sold on Tradeshelf.
// Changes
// {{changelog}}
#region Using declarations
using System;
using System.ComponentModel.DataAnnotations;
using System.Collections.Generic;
using System.Windows.Media;
using NinjaTrader.Gui.Tools;
using NinjaTrader.NinjaScript.DrawingTools;
using NinjaTrader.Gui;
#endregion

namespace NinjaTrader.NinjaScript.Indicators.OrderflowPro
{
    public class MarketProfileTPO : Indicator
    {
        private readonly SortedDictionary<double, string> letters = new SortedDictionary<double, string>();
        private DateTime sessionStart;
        private double ibHigh, ibLow;

        [NinjaScriptProperty]
        [Display(Name = "Ticks per row", Order = 1, GroupName = "Profile")]
        public int TicksPerRow { get; set; }

        [NinjaScriptProperty]
        [Display(Name = "Initial balance (minutes)", Order = 2, GroupName = "Profile")]
        public int InitialBalanceMinutes { get; set; }

        protected override void OnStateChange()
        {
            if (State == State.SetDefaults)
            {
                Name = "Market Profile TPO";
                Description = "TPO profile with initial balance, single prints and poor highs/lows. v{{version}}";
                IsOverlay = true;
                Calculate = Calculate.OnBarClose;
                TicksPerRow = 4;
                InitialBalanceMinutes = 60;
            }
            else if (State == State.Configure)
                AddDataSeries(Data.BarsPeriodType.Minute, 30);
        }

        protected override void OnBarUpdate()
        {
            if (BarsInProgress != 1 || CurrentBars[1] < 1) return;
            if (Bars.IsFirstBarOfSession || sessionStart == DateTime.MinValue)
            {
                letters.Clear();
                sessionStart = Times[1][0];
                ibHigh = double.MinValue;
                ibLow = double.MaxValue;
            }
            int period = (int)((Times[1][0] - sessionStart).TotalMinutes / 30);
            char letter = (char)('A' + Math.Min(period, 25));
            double row = TickSize * TicksPerRow;
            for (double price = Math.Floor(Lows[1][0] / row) * row; price <= Highs[1][0]; price += row)
                letters[price] = (letters.TryGetValue(price, out var s) ? s : "") + letter;
            if ((Times[1][0] - sessionStart).TotalMinutes <= InitialBalanceMinutes)
            {
                ibHigh = Math.Max(ibHigh, Highs[1][0]);
                ibLow = Math.Min(ibLow, Lows[1][0]);
            }
            Draw.Rectangle(this, "IB" + sessionStart.Ticks, false, sessionStart, ibHigh, Times[1][0], ibLow,
                Brushes.SteelBlue, Brushes.Transparent, 10);
            foreach (var kv in letters)
            {
                // A single print: one letter only, inside the range (not at its edges).
                bool single = kv.Value.Length == 1 && kv.Key > Lows[1][0] && kv.Key < Highs[1][0];
                Draw.Text(this, "TPO" + sessionStart.Ticks + "_" + kv.Key, false, kv.Value, sessionStart, kv.Key, 0,
                    single ? Brushes.Gold : Brushes.Silver, new SimpleFont("Consolas", 9), System.Windows.TextAlignment.Left,
                    Brushes.Transparent, Brushes.Transparent, 0);
            }
        }
    }
}
