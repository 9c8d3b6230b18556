//+------------------------------------------------------------------+
//| SessionBox: Asian, London and New York session boxes with        |
//| breakout levels. Pip Hunters FX, sold on Tradeshelf.             |
//+------------------------------------------------------------------+
// Changes
// 2.4:
//   - Fixed the London box on Sunday-open brokers.
// 2.3:
//   - Breakout levels beside each box.
#property copyright "Pip Hunters FX"
#property link      "https://tradeshelf.example/pip-hunters"
#property version   "2.4"
#property description "Session Box Indicator: session boxes and breakout levels."
#property indicator_chart_window
#property indicator_plots 0

input int    InpBrokerOffset  = 2;           // Broker time minus GMT, in hours
input int    InpAsiaStart     = 0;           // Asian session start (GMT hour)
input int    InpAsiaEnd       = 8;
input int    InpLondonStart   = 7;           // London session start (GMT hour)
input int    InpLondonEnd     = 16;
input int    InpNewYorkStart  = 12;          // New York session start (GMT hour)
input int    InpNewYorkEnd    = 21;
input int    InpDaysBack      = 10;          // Days of boxes to draw
input double InpBreakoutPips  = 3.0;         // Breakout level distance from the box, in pips
input color  InpAsiaColor     = clrSteelBlue;
input color  InpLondonColor   = clrSeaGreen;
input color  InpNewYorkColor  = clrIndianRed;

const string PREFIX = "SessionBox_";

int OnInit()
  {
   IndicatorSetString(INDICATOR_SHORTNAME, "SessionBox 2.4");
   return(INIT_SUCCEEDED);
  }

void OnDeinit(const int reason)
  {
   ObjectsDeleteAll(0, PREFIX);
  }

double PipSize()
  {
   return (_Digits == 3 || _Digits == 5) ? _Point * 10.0 : _Point;
  }

// Draws one session of one day: the box from its high and low, and the two breakout lines.
void DrawSession(const string name, datetime day, int startHour, int endHour, color clr)
  {
   datetime from = day + (startHour + InpBrokerOffset) * 3600;
   datetime to   = day + (endHour + InpBrokerOffset) * 3600;
   int first = iBarShift(_Symbol, PERIOD_M15, from, false);
   int last  = iBarShift(_Symbol, PERIOD_M15, to, false);
   if(first < 0 || last < 0 || first <= last)
      return;
   double high = iHigh(_Symbol, PERIOD_M15, iHighest(_Symbol, PERIOD_M15, MODE_HIGH, first - last + 1, last));
   double low  = iLow(_Symbol, PERIOD_M15, iLowest(_Symbol, PERIOD_M15, MODE_LOW, first - last + 1, last));
   string id = PREFIX + name + "_" + TimeToString(day, TIME_DATE);
   if(ObjectFind(0, id) < 0)
      ObjectCreate(0, id, OBJ_RECTANGLE, 0, from, high, to, low);
   ObjectSetInteger(0, id, OBJPROP_COLOR, clr);
   ObjectSetInteger(0, id, OBJPROP_BACK, true);
   ObjectSetInteger(0, id, OBJPROP_FILL, false);
   ObjectMove(0, id, 0, from, high);
   ObjectMove(0, id, 1, to, low);
   double offset = InpBreakoutPips * PipSize();
   DrawLevel(id + "_up", to, high + offset, clr);
   DrawLevel(id + "_dn", to, low - offset, clr);
  }

void DrawLevel(const string id, datetime from, double price, color clr)
  {
   if(ObjectFind(0, id) < 0)
      ObjectCreate(0, id, OBJ_TREND, 0, from, price, from + 4 * 3600, price);
   ObjectSetInteger(0, id, OBJPROP_STYLE, STYLE_DOT);
   ObjectSetInteger(0, id, OBJPROP_COLOR, clr);
   ObjectSetInteger(0, id, OBJPROP_RAY_RIGHT, false);
   ObjectMove(0, id, 0, from, price);
   ObjectMove(0, id, 1, from + 4 * 3600, price);
  }

int OnCalculate(const int rates_total, const int prev_calculated, const datetime &time[],
                const double &open[], const double &high[], const double &low[],
                const double &close[], const long &tick_volume[], const long &volume[],
                const int &spread[])
  {
   datetime today = iTime(_Symbol, PERIOD_D1, 0);
   for(int d = 0; d < InpDaysBack; d++)
     {
      datetime day = today - d * 86400;
      MqlDateTime parts;
      TimeToStruct(day, parts);
      // Sunday-open brokers print a short Sunday bar: it is not a trading day of its own.
      if(parts.day_of_week == 0 || parts.day_of_week == 6)
         continue;
      DrawSession("Asia", day, InpAsiaStart, InpAsiaEnd, InpAsiaColor);
      DrawSession("London", day, InpLondonStart, InpLondonEnd, InpLondonColor);
      DrawSession("NewYork", day, InpNewYorkStart, InpNewYorkEnd, InpNewYorkColor);
     }
   return(rates_total);
  }
