//+------------------------------------------------------------------+
//| Multi-Timeframe RSI Dashboard: Wilder RSI for 28 pairs on nine   |
//| timeframes in one panel. Algo Harbor, sold on Tradeshelf.        |
//+------------------------------------------------------------------+
// Changes
// 3.1:
//   - Symbol suffix input.
// 3.0:
//   - Nine timeframes, M1 to monthly.
#property copyright "Algo Harbor"
#property version   "3.1"
#property indicator_chart_window
#property indicator_plots 0

input int    InpPeriod     = 14;  // RSI period
input double InpOverbought = 70;  // Cells above turn red
input double InpOversold   = 30;  // Cells below turn green
input string InpSuffix     = "";  // Symbol suffix your broker uses

const string PAIRS[28] = {"EURUSD","GBPUSD","USDJPY","USDCHF","USDCAD","AUDUSD","NZDUSD",
   "EURGBP","EURJPY","EURCHF","EURCAD","EURAUD","EURNZD","GBPJPY","GBPCHF","GBPCAD","GBPAUD",
   "GBPNZD","AUDJPY","AUDCHF","AUDCAD","AUDNZD","NZDJPY","NZDCHF","NZDCAD","CADJPY","CADCHF","CHFJPY"};
const ENUM_TIMEFRAMES FRAMES[9] = {PERIOD_M1, PERIOD_M5, PERIOD_M15, PERIOD_M30, PERIOD_H1,
   PERIOD_H4, PERIOD_D1, PERIOD_W1, PERIOD_MN1};
const string PREFIX = "RSID_";

// Wilder's RSI from closes, the same on both MetaTraders (no indicator handles needed).
double Rsi(const string symbol, ENUM_TIMEFRAMES tf, int period)
  {
   int bars = period * 5;
   double gain = 0, loss = 0;
   for(int i = bars; i > 0; i--)
     {
      double change = iClose(symbol, tf, i - 1) - iClose(symbol, tf, i);
      double up = change > 0 ? change : 0, down = change < 0 ? -change : 0;
      if(i > bars - period) { gain += up / period; loss += down / period; continue; }
      gain = (gain * (period - 1) + up) / period;
      loss = (loss * (period - 1) + down) / period;
     }
   return loss == 0 ? 100.0 : 100.0 - 100.0 / (1.0 + gain / loss);
  }

int OnInit()
  {
   EventSetTimer(5);
   return(INIT_SUCCEEDED);
  }

void OnDeinit(const int reason)
  {
   EventKillTimer();
   ObjectsDeleteAll(0, PREFIX);
  }

void OnTimer()
  {
   for(int p = 0; p < 28; p++)
     {
      string symbol = PAIRS[p] + InpSuffix;
      if(!SymbolSelect(symbol, true)) continue;
      for(int f = 0; f < 9; f++)
        {
         double value = Rsi(symbol, FRAMES[f], InpPeriod);
         color clr = value >= InpOverbought ? clrTomato : value <= InpOversold ? clrLimeGreen : clrSilver;
         string id = PREFIX + IntegerToString(p) + "_" + IntegerToString(f);
         if(ObjectFind(0, id) < 0) ObjectCreate(0, id, OBJ_LABEL, 0, 0, 0);
         ObjectSetInteger(0, id, OBJPROP_XDISTANCE, 80 + f * 42);
         ObjectSetInteger(0, id, OBJPROP_YDISTANCE, 24 + p * 15);
         ObjectSetInteger(0, id, OBJPROP_COLOR, clr);
         ObjectSetString(0, id, OBJPROP_TEXT, DoubleToString(value, 0));
        }
     }
   ChartRedraw();
  }

int OnCalculate(const int rates_total, const int prev_calculated, const datetime &time[],
                const double &open[], const double &high[], const double &low[],
                const double &close[], const long &tick_volume[], const long &volume[],
                const int &spread[])
  {
   return(rates_total);
  }
