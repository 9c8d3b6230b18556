//+------------------------------------------------------------------+
//| Harmonic Pattern Finder: Gartley, Bat, Butterfly and Crab with   |
//| their potential reversal zone (PRZ). Pip Hunters FX.             |
//+------------------------------------------------------------------+
// Changes
// 1.2:
//   - Crab pattern.
//   - Alert when price enters a zone.
#property copyright "Pip Hunters FX"
#property version   "1.2"
#property strict
#property indicator_chart_window

input int    InpDepth     = 12;    // Bars either side of a swing point
input double InpTolerance = 0.05;  // Allowed miss on each Fibonacci ratio
input int    InpBarsBack  = 500;   // Bars searched for patterns
input bool   InpAlerts    = true;  // Alert when price enters a fresh PRZ

const string PREFIX = "HPF_";
datetime lastAlert = 0;

struct Ratio { string name; double abMin, abMax, bcMin, bcMax, xdMin, xdMax; };
Ratio RATIOS[4];

int OnInit()
  {
   RATIOS[0].name = "Gartley";   RATIOS[0].abMin = 0.618; RATIOS[0].abMax = 0.618; RATIOS[0].bcMin = 0.382; RATIOS[0].bcMax = 0.886; RATIOS[0].xdMin = 0.786; RATIOS[0].xdMax = 0.786;
   RATIOS[1].name = "Bat";       RATIOS[1].abMin = 0.382; RATIOS[1].abMax = 0.500; RATIOS[1].bcMin = 0.382; RATIOS[1].bcMax = 0.886; RATIOS[1].xdMin = 0.886; RATIOS[1].xdMax = 0.886;
   RATIOS[2].name = "Butterfly"; RATIOS[2].abMin = 0.786; RATIOS[2].abMax = 0.786; RATIOS[2].bcMin = 0.382; RATIOS[2].bcMax = 0.886; RATIOS[2].xdMin = 1.270; RATIOS[2].xdMax = 1.618;
   RATIOS[3].name = "Crab";      RATIOS[3].abMin = 0.382; RATIOS[3].abMax = 0.618; RATIOS[3].bcMin = 0.382; RATIOS[3].bcMax = 0.886; RATIOS[3].xdMin = 1.618; RATIOS[3].xdMax = 1.618;
   return(INIT_SUCCEEDED);
  }

void OnDeinit(const int reason) { ObjectsDeleteAll(0, PREFIX); }

bool Within(double value, double lo, double hi)
  {
   return value >= lo * (1 - InpTolerance) && value <= hi * (1 + InpTolerance);
  }

// Swing highs and lows, newest first, alternating: the X, A, B, C legs of a pattern.
int Swings(const double &high[], const double &low[], int bars, double &price[], int &index[])
  {
   int n = 0;
   for(int i = InpDepth; i < bars - InpDepth && n < 5; i++)
     {
      bool top = true, bottom = true;
      for(int k = 1; k <= InpDepth; k++)
        {
         if(high[i] < high[i - k] || high[i] < high[i + k]) top = false;
         if(low[i] > low[i - k] || low[i] > low[i + k]) bottom = false;
        }
      if(top || bottom) { price[n] = top ? high[i] : low[i]; index[n] = i; n++; }
     }
   return n;
  }

int OnCalculate(const int rates_total, const int prev_calculated, const datetime &time[],
                const double &open[], const double &high[], const double &low[],
                const double &close[], const long &tick_volume[], const long &volume[],
                const int &spread[])
  {
   ArraySetAsSeries(high, true); ArraySetAsSeries(low, true);
   ArraySetAsSeries(close, true); ArraySetAsSeries(time, true);
   double p[5]; int at[5];
   if(Swings(high, low, MathMin(rates_total, InpBarsBack), p, at) < 4) return(rates_total);
   // p[3] = X, p[2] = A, p[1] = B, p[0] = C; D is projected from XA.
   double xa = MathAbs(p[2] - p[3]), ab = MathAbs(p[1] - p[2]), bc = MathAbs(p[0] - p[1]);
   if(xa == 0 || ab == 0) return(rates_total);
   for(int r = 0; r < 4; r++)
     {
      if(!Within(ab / xa, RATIOS[r].abMin, RATIOS[r].abMax) || !Within(bc / ab, RATIOS[r].bcMin, RATIOS[r].bcMax))
         continue;
      double dir = p[2] > p[3] ? -1 : 1;
      double przTop = p[2] + dir * xa * RATIOS[r].xdMin, przBottom = p[2] + dir * xa * RATIOS[r].xdMax;
      string id = PREFIX + RATIOS[r].name + "_" + TimeToString(time[at[3]]);
      if(ObjectFind(0, id) < 0)
         ObjectCreate(0, id, OBJ_RECTANGLE, 0, time[at[0]], przTop, time[0] + PeriodSeconds() * 20, przBottom);
      ObjectSetInteger(0, id, OBJPROP_COLOR, clrGoldenrod);
      ObjectSetString(0, id, OBJPROP_TOOLTIP, RATIOS[r].name + " PRZ");
      bool inside = close[0] <= MathMax(przTop, przBottom) && close[0] >= MathMin(przTop, przBottom);
      if(InpAlerts && inside && lastAlert != time[0])
        {
         Alert(_Symbol, " ", RATIOS[r].name, ": price is in the PRZ");
         lastAlert = time[0];
        }
     }
   return(rates_total);
  }
