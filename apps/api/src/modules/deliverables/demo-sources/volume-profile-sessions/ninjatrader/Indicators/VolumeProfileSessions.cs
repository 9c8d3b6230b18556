// Volume Profile Sessions {{version}}: per-session volume profile with point of control and a 70 %
// value area, and an alert when price re-enters the value area. Orderflow Pro, sold on Tradeshelf.
// Changes
// {{changelog}}
#region Using declarations
using System;
using System.ComponentModel.DataAnnotations;
using System.Collections.Generic;
using System.Linq;
using System.Windows.Media;
using NinjaTrader.NinjaScript.DrawingTools;
using NinjaTrader.Gui;
#endregion

namespace NinjaTrader.NinjaScript.Indicators.OrderflowPro
{
    public class VolumeProfileSessions : Indicator
    {
        private readonly Dictionary<double, double> volumeAt = new Dictionary<double, double>();
        private DateTime sessionStart;
        private bool wasOutside;

        [NinjaScriptProperty]
        [Display(Name = "Value area %", Order = 1, GroupName = "Profile")]
        public double ValueAreaPercent { get; set; }

        [NinjaScriptProperty]
        [Display(Name = "Alert on value-area re-entry", Order = 2, GroupName = "Alerts")]
        public bool AlertOnReentry { get; set; }

        protected override void OnStateChange()
        {
            if (State == State.SetDefaults)
            {
                Name = "Volume Profile Sessions";
                Description = "Session volume profile, POC and value area. v{{version}}";
                IsOverlay = true;
                ValueAreaPercent = 70;
                AlertOnReentry = true;
            }
        }

        protected override void OnBarUpdate()
        {
            if (Bars.IsFirstBarOfSession) { volumeAt.Clear(); sessionStart = Time[0]; }
            // The bar's volume spread over its range, tick by tick.
            int ticks = Math.Max(1, (int)Math.Round((High[0] - Low[0]) / TickSize) + 1);
            for (int i = 0; i < ticks; i++)
            {
                double price = Instrument.MasterInstrument.RoundToTickSize(Low[0] + i * TickSize);
                volumeAt[price] = (volumeAt.TryGetValue(price, out var v) ? v : 0) + Volume[0] / (double)ticks;
            }
            double poc = volumeAt.OrderByDescending(kv => kv.Value).First().Key;
            var byDistance = volumeAt.OrderBy(kv => Math.Abs(kv.Key - poc)).ToList();
            double target = volumeAt.Values.Sum() * ValueAreaPercent / 100, sum = 0, vah = poc, val = poc;
            foreach (var kv in byDistance)
            {
                if (sum >= target) break;
                sum += kv.Value;
                vah = Math.Max(vah, kv.Key);
                val = Math.Min(val, kv.Key);
            }
            string id = sessionStart.Ticks.ToString();
            Draw.Line(this, "POC" + id, false, sessionStart, poc, Time[0], poc, Brushes.Gold, DashStyleHelper.Solid, 2);
            Draw.Line(this, "VAH" + id, false, sessionStart, vah, Time[0], vah, Brushes.SteelBlue, DashStyleHelper.Dash, 1);
            Draw.Line(this, "VAL" + id, false, sessionStart, val, Time[0], val, Brushes.SteelBlue, DashStyleHelper.Dash, 1);
            bool outside = Close[0] > vah || Close[0] < val;
            if (AlertOnReentry && wasOutside && !outside)
                Alert("VPS" + CurrentBar, Priority.Medium, "Price is back inside the value area", "", 60, Brushes.SteelBlue, Brushes.White);
            wasOutside = outside;
        }
    }
}
