//+------------------------------------------------------------------+
//| Currency Strength Scanner: ranks the eight majors by their move   |
//| against the other seven on five timeframes. Pip Hunters FX.      |
//+------------------------------------------------------------------+
// Changes
// 4.0:
//   - Five timeframes in one panel.
#property copyright "Pip Hunters FX"
#property version   "4.0"
#property indicator_chart_window
#property indicator_plots 0

input string InpSuffix    = "";   // Symbol suffix your broker uses (e.g. ".m")
input int    InpLookback  = 20;   // Bars per timeframe the change is measured over
input int    InpCorner    = 0;    // Panel corner (0 top left … 3 bottom right)
input int    InpRefreshSec = 10;  // Seconds between scans

const string CURRENCIES[8] = {"USD", "EUR", "GBP", "JPY", "CHF", "CAD", "AUD", "NZD"};
const ENUM_TIMEFRAMES FRAMES[5] = {PERIOD_M15, PERIOD_H1, PERIOD_H4, PERIOD_D1, PERIOD_W1};
const string PREFIX = "CSS_";

int OnInit()
  {
   EventSetTimer(InpRefreshSec);
   Scan();
   return(INIT_SUCCEEDED);
  }

void OnDeinit(const int reason)
  {
   EventKillTimer();
   ObjectsDeleteAll(0, PREFIX);
  }

void OnTimer() { Scan(); }

// Percentage change of base against quote over the lookback, 0 when the pair is not offered.
double PairChange(const string base, const string quote, ENUM_TIMEFRAMES tf, bool &found)
  {
   string symbol = base + quote + InpSuffix;
   double sign = 1.0;
   if(!SymbolSelect(symbol, true))
     {
      symbol = quote + base + InpSuffix;
      sign = -1.0;
      if(!SymbolSelect(symbol, true)) { found = false; return 0.0; }
     }
   double now = iClose(symbol, tf, 0), then = iClose(symbol, tf, InpLookback);
   found = now > 0 && then > 0;
   return found ? sign * (now - then) / then * 100.0 : 0.0;
  }

void Scan()
  {
   for(int f = 0; f < 5; f++)
     {
      double strength[8];
      for(int c = 0; c < 8; c++)
        {
         double sum = 0; int pairs = 0;
         for(int o = 0; o < 8; o++)
           {
            if(o == c) continue;
            bool found = false;
            double change = PairChange(CURRENCIES[c], CURRENCIES[o], FRAMES[f], found);
            if(found) { sum += change; pairs++; }
           }
         strength[c] = pairs > 0 ? sum / pairs : 0.0;
        }
      for(int c = 0; c < 8; c++)
         Cell(f, c, StringFormat("%s %+.2f", CURRENCIES[c], strength[c]),
              strength[c] >= 0 ? clrLimeGreen : clrTomato);
     }
   ChartRedraw();
  }

void Cell(int column, int row, const string text, color clr)
  {
   string id = PREFIX + IntegerToString(column) + "_" + IntegerToString(row);
   if(ObjectFind(0, id) < 0)
      ObjectCreate(0, id, OBJ_LABEL, 0, 0, 0);
   ObjectSetInteger(0, id, OBJPROP_CORNER, InpCorner);
   ObjectSetInteger(0, id, OBJPROP_XDISTANCE, 10 + column * 90);
   ObjectSetInteger(0, id, OBJPROP_YDISTANCE, 20 + row * 16);
   ObjectSetInteger(0, id, OBJPROP_COLOR, clr);
   ObjectSetString(0, id, OBJPROP_TEXT, text);
  }

int OnCalculate(const int rates_total, const int prev_calculated, const datetime &time[],
                const double &open[], const double &high[], const double &low[],
                const double &close[], const long &tick_volume[], const long &volume[],
                const int &spread[])
  {
   return(rates_total);
  }
