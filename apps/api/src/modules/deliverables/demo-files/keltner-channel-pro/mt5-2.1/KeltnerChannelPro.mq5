//+------------------------------------------------------------------+
//| Keltner Channel Pro: EMA ± ATR channels, a squeeze flag when the  |
//| Bollinger Bands sit inside them, and breakout arrows. Algo Harbor.|
//+------------------------------------------------------------------+
// Changes
// 2.1:
//   - First MetaTrader 5 release.
#property copyright "Algo Harbor"
#property version   "2.1"
#property indicator_chart_window
#property indicator_buffers 5
#property indicator_plots   5
#property indicator_type1 DRAW_LINE
#property indicator_color1 clrSlateGray
#property indicator_label1 "Middle"
#property indicator_type2 DRAW_LINE
#property indicator_color2 clrDodgerBlue
#property indicator_label2 "Upper"
#property indicator_type3 DRAW_LINE
#property indicator_color3 clrDodgerBlue
#property indicator_label3 "Lower"
#property indicator_type4 DRAW_ARROW
#property indicator_color4 clrLime
#property indicator_label4 "Breakout up"
#property indicator_type5 DRAW_ARROW
#property indicator_color5 clrRed
#property indicator_label5 "Breakout down"

input int    InpEma        = 20;   // Middle line EMA
input int    InpAtr        = 10;   // ATR period
input double InpMultiplier = 2.0;  // Channel width in ATRs
input double InpBandsDev   = 2.0;  // Bollinger deviation for the squeeze test

double Mid[], Up[], Dn[], ArrowUp[], ArrowDn[];

int OnInit()
  {
   SetIndexBuffer(0, Mid); SetIndexBuffer(1, Up); SetIndexBuffer(2, Dn);
   SetIndexBuffer(3, ArrowUp); SetIndexBuffer(4, ArrowDn);
   PlotIndexSetInteger(3, PLOT_ARROW, 233);
   PlotIndexSetInteger(4, PLOT_ARROW, 234);
   PlotIndexSetDouble(3, PLOT_EMPTY_VALUE, EMPTY_VALUE);
   PlotIndexSetDouble(4, PLOT_EMPTY_VALUE, EMPTY_VALUE);
   return(INIT_SUCCEEDED);
  }

int OnCalculate(const int rates_total, const int prev_calculated, const datetime &time[],
                const double &open[], const double &high[], const double &low[],
                const double &close[], const long &tick_volume[], const long &volume[],
                const int &spread[])
  {
   int warm = MathMax(InpEma, InpAtr) + 1;
   if(rates_total <= warm) return(0);
   double alpha = 2.0 / (InpEma + 1.0);
   for(int i = MathMax(prev_calculated - 1, 1); i < rates_total; i++)
     {
      Mid[i] = i == 1 ? close[i] : Mid[i - 1] + alpha * (close[i] - Mid[i - 1]);
      double atr = 0, mean = 0, dev = 0;
      int n = MathMin(i, MathMax(InpAtr, InpEma));
      for(int k = 0; k < InpAtr && k < i; k++)
         atr += MathMax(high[i - k], close[i - k - 1]) - MathMin(low[i - k], close[i - k - 1]);
      atr /= InpAtr;
      for(int k = 0; k < n; k++) mean += close[i - k];
      mean /= n;
      for(int k = 0; k < n; k++) dev += MathPow(close[i - k] - mean, 2);
      dev = MathSqrt(dev / n);
      Up[i] = Mid[i] + InpMultiplier * atr;
      Dn[i] = Mid[i] - InpMultiplier * atr;
      // A squeeze: the Bollinger Bands inside the channel on the bar before.
      bool squeeze = i > warm && InpBandsDev * dev < InpMultiplier * atr;
      ArrowUp[i] = squeeze && close[i] > Up[i] && close[i - 1] <= Up[i - 1] ? low[i] : EMPTY_VALUE;
      ArrowDn[i] = squeeze && close[i] < Dn[i] && close[i - 1] >= Dn[i - 1] ? high[i] : EMPTY_VALUE;
     }
   return(rates_total);
  }
