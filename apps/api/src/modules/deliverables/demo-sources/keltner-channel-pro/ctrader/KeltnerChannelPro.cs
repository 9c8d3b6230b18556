// Keltner Channel Pro {{version}}: EMA ± ATR channels, a squeeze when the Bollinger Bands sit inside
// them, and arrows on the breakout that ends a squeeze. Algo Harbor, sold on Tradeshelf.
// Changes
// {{changelog}}
using cAlgo.API;
using cAlgo.API.Indicators;

namespace cAlgo.Indicators
{
    [Indicator(IsOverlay = true, AccessRights = AccessRights.None)]
    public class KeltnerChannelPro : Indicator
    {
        [Parameter("EMA period", DefaultValue = 20)]
        public int EmaPeriod { get; set; }

        [Parameter("ATR period", DefaultValue = 10)]
        public int AtrPeriod { get; set; }

        [Parameter("Multiplier", DefaultValue = 2.0)]
        public double Multiplier { get; set; }

        [Parameter("Bollinger deviation", DefaultValue = 2.0)]
        public double BandsDeviation { get; set; }

        [Output("Middle", LineColor = "SlateGray")]
        public IndicatorDataSeries Middle { get; set; }

        [Output("Upper", LineColor = "DodgerBlue")]
        public IndicatorDataSeries Upper { get; set; }

        [Output("Lower", LineColor = "DodgerBlue")]
        public IndicatorDataSeries Lower { get; set; }

        private ExponentialMovingAverage ema;
        private AverageTrueRange atr;
        private BollingerBands bands;

        protected override void Initialize()
        {
            ema = Indicators.ExponentialMovingAverage(Bars.ClosePrices, EmaPeriod);
            atr = Indicators.AverageTrueRange(AtrPeriod, MovingAverageType.Exponential);
            bands = Indicators.BollingerBands(Bars.ClosePrices, EmaPeriod, BandsDeviation, MovingAverageType.Simple);
        }

        public override void Calculate(int index)
        {
            Middle[index] = ema.Result[index];
            Upper[index] = Middle[index] + Multiplier * atr.Result[index];
            Lower[index] = Middle[index] - Multiplier * atr.Result[index];
            if (index < 1) return;
            bool squeeze = bands.Top[index - 1] < Upper[index - 1] && bands.Bottom[index - 1] > Lower[index - 1];
            double close = Bars.ClosePrices[index];
            if (squeeze && close > Upper[index])
                Chart.DrawIcon("up" + index, ChartIconType.UpArrow, index, Bars.LowPrices[index], Color.LimeGreen);
            else if (squeeze && close < Lower[index])
                Chart.DrawIcon("dn" + index, ChartIconType.DownArrow, index, Bars.HighPrices[index], Color.Red);
        }
    }
}
