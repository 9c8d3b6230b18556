// Volume Profile Sessions {{version}} for cTrader: per-session volume profile with point of control and
// value area, drawn on the chart. Orderflow Pro, sold on Tradeshelf.
// Changes
// {{changelog}}
using System;
using System.Collections.Generic;
using System.Linq;
using cAlgo.API;

namespace cAlgo.Indicators
{
    [Indicator(IsOverlay = true, AccessRights = AccessRights.None, TimeZone = TimeZones.UTC)]
    public class VolumeProfileSessions : Indicator
    {
        [Parameter("Session start (UTC hour)", DefaultValue = 22)]
        public int SessionStartHour { get; set; }

        [Parameter("Value area %", DefaultValue = 70)]
        public double ValueAreaPercent { get; set; }

        [Parameter("Row size (pips)", DefaultValue = 2)]
        public double RowPips { get; set; }

        private readonly Dictionary<double, double> volumeAt = new Dictionary<double, double>();
        private int sessionStartIndex;

        public override void Calculate(int index)
        {
            var time = Bars.OpenTimes[index];
            if (index > 0 && time.Hour == SessionStartHour && Bars.OpenTimes[index - 1].Hour != SessionStartHour)
            {
                volumeAt.Clear();
                sessionStartIndex = index;
            }
            double row = RowPips * Symbol.PipSize;
            double low = Math.Floor(Bars.LowPrices[index] / row) * row;
            int rows = Math.Max(1, (int)((Bars.HighPrices[index] - low) / row) + 1);
            foreach (var price in Enumerable.Range(0, rows).Select(i => Math.Round(low + i * row, Symbol.Digits)))
                volumeAt[price] = (volumeAt.TryGetValue(price, out var v) ? v : 0) + Bars.TickVolumes[index] / (double)rows;
            if (!IsLastBar) return;
            double poc = volumeAt.OrderByDescending(kv => kv.Value).First().Key;
            double target = volumeAt.Values.Sum() * ValueAreaPercent / 100, sum = 0, vah = poc, val = poc;
            foreach (var kv in volumeAt.OrderBy(kv => Math.Abs(kv.Key - poc)))
            {
                if (sum >= target) break;
                sum += kv.Value;
                vah = Math.Max(vah, kv.Key);
                val = Math.Min(val, kv.Key);
            }
            Chart.DrawTrendLine("poc", sessionStartIndex, poc, index, poc, Color.Gold, 2);
            Chart.DrawTrendLine("vah", sessionStartIndex, vah, index, vah, Color.SteelBlue, 1, LineStyle.Dots);
            Chart.DrawTrendLine("val", sessionStartIndex, val, index, val, Color.SteelBlue, 1, LineStyle.Dots);
        }
    }
}
