//+------------------------------------------------------------------+
//| Volume Weighted MACD: MACD of volume-weighted averages, so thin   |
//| bars move it less. Alpha Edge Labs, sold on Tradeshelf.          |
//+------------------------------------------------------------------+
// Changes
// 1.0:
//   - First MetaTrader 5 release.
#property copyright "Alpha Edge Labs"
#property version   "1.0"
#property indicator_separate_window
#property indicator_buffers 4
#property indicator_plots   2
#property indicator_label1  "VW MACD"
#property indicator_type1   DRAW_HISTOGRAM
#property indicator_color1  clrDodgerBlue
#property indicator_label2  "Signal"
#property indicator_type2   DRAW_LINE
#property indicator_color2  clrOrange

input int InpFast   = 12; // Fast volume-weighted average
input int InpSlow   = 26; // Slow volume-weighted average
input int InpSignal = 9;  // Signal EMA

double Macd[], Signal[], PV[], V[];

int OnInit()
  {
   SetIndexBuffer(0, Macd, INDICATOR_DATA);
   SetIndexBuffer(1, Signal, INDICATOR_DATA);
   SetIndexBuffer(2, PV, INDICATOR_CALCULATIONS);
   SetIndexBuffer(3, V, INDICATOR_CALCULATIONS);
   IndicatorSetString(INDICATOR_SHORTNAME, StringFormat("VW MACD(%d,%d,%d)", InpFast, InpSlow, InpSignal));
   return(INIT_SUCCEEDED);
  }

// The volume-weighted average of the last `period` closes ending at bar i (oldest bar first).
double Vwma(const double &close[], const long &volume[], int i, int period)
  {
   double pv = 0, v = 0;
   for(int k = 0; k < period; k++)
     {
      pv += close[i - k] * (double)volume[i - k];
      v  += (double)volume[i - k];
     }
   return v > 0 ? pv / v : close[i];
  }

int OnCalculate(const int rates_total, const int prev_calculated, const datetime &time[],
                const double &open[], const double &high[], const double &low[],
                const double &close[], const long &tick_volume[], const long &volume[],
                const int &spread[])
  {
   if(rates_total <= InpSlow + InpSignal)
      return(0);
   ArraySetAsSeries(close, false);
   ArraySetAsSeries(tick_volume, false);
   int start = MathMax(prev_calculated - 1, InpSlow);
   double alpha = 2.0 / (InpSignal + 1.0);
   for(int i = start; i < rates_total; i++)
     {
      // Real volume where the broker sends it, tick volume otherwise (forex).
      Macd[i] = Vwma(close, tick_volume, i, InpFast) - Vwma(close, tick_volume, i, InpSlow);
      Signal[i] = i == InpSlow ? Macd[i] : Signal[i - 1] + alpha * (Macd[i] - Signal[i - 1]);
     }
   return(rates_total);
  }
