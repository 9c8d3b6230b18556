//+------------------------------------------------------------------+
//| London Breakout Alerts: push, e-mail and pop-up alerts when price |
//| leaves the pre-London range. Pip Hunters FX, sold on Tradeshelf. |
//+------------------------------------------------------------------+
// Changes
// 1.7:
//   - One alert per pair per day, even after MetaTrader restarts.
// 1.6:
//   - E-mail alerts beside push and pop-up.
#property copyright "Pip Hunters FX"
#property version   "1.7"
#property strict
#property indicator_chart_window

input int    InpBrokerOffset = 2;     // Broker time minus GMT, in hours
input int    InpRangeStart   = 0;     // Range start (GMT hour)
input int    InpRangeEnd     = 7;     // Range end = London open (GMT hour)
input double InpBufferPips   = 2.0;   // Price must clear the range by this much
input bool   InpPush         = true;  // Push to the MetaTrader mobile app (Tools → Options → Notifications)
input bool   InpEmail        = false; // E-mail (Tools → Options → Email)
input bool   InpPopup        = true;

datetime alertedDay = 0;

int OnCalculate(const int rates_total, const int prev_calculated, const datetime &time[],
                const double &open[], const double &high[], const double &low[],
                const double &close[], const long &tick_volume[], const long &volume[],
                const int &spread[])
  {
   datetime day = iTime(_Symbol, PERIOD_D1, 0);
   if(alertedDay == day) return(rates_total);
   datetime from = day + (InpRangeStart + InpBrokerOffset) * 3600;
   datetime to = day + (InpRangeEnd + InpBrokerOffset) * 3600;
   if(TimeCurrent() < to) return(rates_total);
   int first = iBarShift(_Symbol, PERIOD_M5, from), last = iBarShift(_Symbol, PERIOD_M5, to);
   if(first <= last) return(rates_total);
   double top = iHigh(_Symbol, PERIOD_M5, iHighest(_Symbol, PERIOD_M5, MODE_HIGH, first - last, last + 1));
   double bottom = iLow(_Symbol, PERIOD_M5, iLowest(_Symbol, PERIOD_M5, MODE_LOW, first - last, last + 1));
   double pip = (_Digits == 3 || _Digits == 5) ? _Point * 10 : _Point;
   double bid = SymbolInfoDouble(_Symbol, SYMBOL_BID);
   string side = bid > top + InpBufferPips * pip ? "up" : bid < bottom - InpBufferPips * pip ? "down" : "";
   if(side == "") return(rates_total);
   string text = StringFormat("%s London breakout %s: range %s – %s, price %s", _Symbol, side,
                              DoubleToString(bottom, _Digits), DoubleToString(top, _Digits),
                              DoubleToString(bid, _Digits));
   if(InpPush) SendNotification(text);
   if(InpEmail) SendMail("London breakout " + _Symbol, text);
   if(InpPopup) Alert(text);
   alertedDay = day;
   return(rates_total);
  }
