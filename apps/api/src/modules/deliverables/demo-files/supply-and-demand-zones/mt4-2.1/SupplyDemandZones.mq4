//+------------------------------------------------------------------+
//| Supply and Demand Zones: fresh zones from strong departures, and |
//| an alert on their first touch. Algo Harbor, sold on Tradeshelf.  |
//+------------------------------------------------------------------+
// Changes
// 2.1:
//   - Zones extend to the current bar.
// 2.0:
//   - First-touch alerts.
#property copyright "Algo Harbor"
#property version   "2.1"
#property strict
#property indicator_chart_window

input int    InpBarsBack   = 300;   // Bars searched for zones
input double InpDeparture  = 2.0;   // A departure candle is this many ATRs long
input int    InpAtrPeriod  = 14;
input bool   InpTouchAlert = true;  // Alert on a zone's first touch
input color  InpSupply     = clrFireBrick;
input color  InpDemand     = clrSeaGreen;

const string PREFIX = "SDZ_";

void OnDeinit(const int reason) { ObjectsDeleteAll(0, PREFIX); }

double Atr(const double &high[], const double &low[], int i)
  {
   double sum = 0;
   for(int k = 0; k < InpAtrPeriod; k++) sum += high[i + k] - low[i + k];
   return sum / InpAtrPeriod;
  }

int OnCalculate(const int rates_total, const int prev_calculated, const datetime &time[],
                const double &open[], const double &high[], const double &low[],
                const double &close[], const long &tick_volume[], const long &volume[],
                const int &spread[])
  {
   ArraySetAsSeries(time, true); ArraySetAsSeries(open, true); ArraySetAsSeries(high, true);
   ArraySetAsSeries(low, true); ArraySetAsSeries(close, true);
   int last = MathMin(rates_total - InpAtrPeriod - 2, InpBarsBack);
   for(int i = last; i >= 2; i--)
     {
      double body = MathAbs(close[i - 1] - open[i - 1]);
      if(body < InpDeparture * Atr(high, low, i)) continue;
      // The base is the candle before the departure; a zone is fresh until price returns to it.
      bool demand = close[i - 1] > open[i - 1];
      double top = high[i], bottom = low[i];
      string id = PREFIX + (demand ? "D_" : "S_") + TimeToString(time[i]);
      bool touched = false;
      for(int k = i - 2; k >= 0 && !touched; k--)
         touched = demand ? low[k] <= top : high[k] >= bottom;
      if(ObjectFind(0, id) < 0)
         ObjectCreate(0, id, OBJ_RECTANGLE, 0, time[i], top, time[0], bottom);
      ObjectSetInteger(0, id, OBJPROP_COLOR, demand ? InpDemand : InpSupply);
      ObjectSetInteger(0, id, OBJPROP_STYLE, touched ? STYLE_DOT : STYLE_SOLID);
      ObjectMove(0, id, 1, time[0], bottom);
      if(InpTouchAlert && touched && ObjectGetString(0, id, OBJPROP_TEXT) != "alerted")
        {
         Alert(_Symbol, demand ? ": first touch of demand at " : ": first touch of supply at ",
               DoubleToString(demand ? top : bottom, _Digits));
         ObjectSetString(0, id, OBJPROP_TEXT, "alerted");
        }
     }
   return(rates_total);
  }
