// Cumulative Delta Divergence {{version}}: marks swings where price makes a new high (low) and
// cumulative delta does not. Needs tick replay. Orderflow Pro, sold on Tradeshelf.
// Changes
// {{changelog}}
#region Using declarations
using System;
using System.ComponentModel.DataAnnotations;
using System.Windows.Media;
using NinjaTrader.Data;
using NinjaTrader.NinjaScript.DrawingTools;
using NinjaTrader.Gui;
#endregion

namespace NinjaTrader.NinjaScript.Indicators.OrderflowPro
{
    public class CumulativeDeltaDivergence : Indicator
    {
        private double cumulative;
        private Series<double> delta;

        [NinjaScriptProperty]
        [Display(Name = "Swing strength (bars)", Order = 1, GroupName = "Divergence")]
        public int Strength { get; set; }

        protected override void OnStateChange()
        {
            if (State == State.SetDefaults)
            {
                Name = "Cumulative Delta Divergence";
                Description = "Price and cumulative delta divergence. v{{version}}";
                IsOverlay = false;
                Strength = 5;
                AddPlot(Brushes.DodgerBlue, "Cumulative delta");
            }
            else if (State == State.DataLoaded)
                delta = new Series<double>(this);
        }

        protected override void OnMarketData(MarketDataEventArgs e)
        {
            if (e.MarketDataType != MarketDataType.Last) return;
            if (e.Price >= e.Ask) cumulative += e.Volume;
            else if (e.Price <= e.Bid) cumulative -= e.Volume;
        }

        protected override void OnBarUpdate()
        {
            if (Bars.IsFirstBarOfSession && IsFirstTickOfBar) cumulative = 0;
            Value[0] = cumulative;
            if (CurrentBar < 4 * Strength) return;
            int lastHigh = Swing(Strength).SwingHighBar(0, 1, 4 * Strength);
            int priorHigh = Swing(Strength).SwingHighBar(0, 2, 4 * Strength);
            if (lastHigh > 0 && priorHigh > lastHigh && High[lastHigh] > High[priorHigh] && Value[lastHigh] < Value[priorHigh])
                Draw.Line(this, "BearDiv" + (CurrentBar - lastHigh), false, priorHigh, Value[priorHigh], lastHigh, Value[lastHigh], Brushes.Tomato, DashStyleHelper.Solid, 2);
            int lastLow = Swing(Strength).SwingLowBar(0, 1, 4 * Strength);
            int priorLow = Swing(Strength).SwingLowBar(0, 2, 4 * Strength);
            if (lastLow > 0 && priorLow > lastLow && Low[lastLow] < Low[priorLow] && Value[lastLow] > Value[priorLow])
                Draw.Line(this, "BullDiv" + (CurrentBar - lastLow), false, priorLow, Value[priorLow], lastLow, Value[lastLow], Brushes.LimeGreen, DashStyleHelper.Solid, 2);
        }
    }
}
