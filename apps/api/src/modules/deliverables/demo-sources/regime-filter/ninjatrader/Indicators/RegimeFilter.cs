// Regime Filter {{version}}: classifies each bar as trending, mean-reverting or volatile from the
// efficiency ratio and ATR percentile, and colours the bars. QuantForge, sold on Tradeshelf.
// Changes
// {{changelog}}
#region Using declarations
using System;
using System.ComponentModel.DataAnnotations;
using System.Linq;
using System.Windows.Media;
using NinjaTrader.Gui;
#endregion

namespace NinjaTrader.NinjaScript.Indicators.QuantForge
{
    public class RegimeFilter : Indicator
    {
        [NinjaScriptProperty]
        [Display(Name = "Lookback", Order = 1, GroupName = "Regime")]
        public int Lookback { get; set; }

        [NinjaScriptProperty]
        [Display(Name = "Trend efficiency", Order = 2, GroupName = "Regime")]
        public double TrendEfficiency { get; set; }

        [NinjaScriptProperty]
        [Display(Name = "Volatile ATR percentile", Order = 3, GroupName = "Regime")]
        public double VolatilePercentile { get; set; }

        protected override void OnStateChange()
        {
            if (State == State.SetDefaults)
            {
                Name = "Regime Filter";
                Description = "Trending, mean-reverting or volatile. v{{version}}";
                IsOverlay = false;
                Lookback = 20;
                TrendEfficiency = 0.35;
                VolatilePercentile = 80;
                // 1 trending, 0 mean-reverting, -1 volatile: strategies can read it as a filter.
                AddPlot(new Stroke(Brushes.DodgerBlue, 2), PlotStyle.Bar, "Regime");
            }
        }

        protected override void OnBarUpdate()
        {
            if (CurrentBar < Lookback * 5) return;
            double path = 0;
            for (int i = 0; i < Lookback; i++) path += Math.Abs(Close[i] - Close[i + 1]);
            double efficiency = path > 0 ? Math.Abs(Close[0] - Close[Lookback]) / path : 0;
            double atr = ATR(Lookback)[0];
            double rank = Enumerable.Range(0, Lookback * 5).Count(i => ATR(Lookback)[i] <= atr) * 100.0 / (Lookback * 5);
            int regime = rank >= VolatilePercentile ? -1 : efficiency >= TrendEfficiency ? 1 : 0;
            Value[0] = regime;
            BarBrush = regime == 1 ? Brushes.DodgerBlue : regime == -1 ? Brushes.OrangeRed : Brushes.Gray;
        }
    }
}
