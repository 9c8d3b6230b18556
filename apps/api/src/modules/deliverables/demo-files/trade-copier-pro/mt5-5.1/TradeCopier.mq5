//+------------------------------------------------------------------+
//| Trade Copier Pro: copies trades between MetaTrader accounts on    |
//| one computer, with lot scaling. Run it as Master on the account  |
//| you trade and as Receiver on each account that follows.          |
//| Pip Hunters FX, sold on Tradeshelf.                              |
//+------------------------------------------------------------------+
// Changes
// 5.1:
//   - Receivers close their copy when the master closes.
#property copyright "Pip Hunters FX"
#property version   "5.1"
#include <Trade/Trade.mqh>
CTrade trade;

enum Role { Master, Receiver };
input Role   InpRole      = Master;
input string InpChannel   = "copier1";  // Same name on the master and its receivers
input double InpLotScale  = 1.0;        // Receiver lots = master lots × this
input double InpMaxLots   = 5.0;        // Never open more than this per trade
input string InpSuffix    = "";         // Receiver's symbol suffix (e.g. ".pro")
input int    InpSlippage  = 3;          // Points

// Master and receivers share a file in the terminals' common folder (File → Open Common Data Folder).
string FileName() { return "TradeCopier_" + InpChannel + ".csv"; }

int OnInit()
  {
   EventSetMillisecondTimer(250);
   return(INIT_SUCCEEDED);
  }

void OnDeinit(const int reason) { EventKillTimer(); }

void OnTimer()
  {
   if(InpRole == Master) Publish();
   else Follow();
  }

// Writes every open position of this account: ticket, symbol, type, lots, stop, target.
void Publish()
  {
   int h = FileOpen(FileName(), FILE_WRITE | FILE_CSV | FILE_COMMON | FILE_SHARE_READ, ',');
   if(h == INVALID_HANDLE) return;
   for(int i = PositionsTotal() - 1; i >= 0; i--)
     {
      ulong ticket = PositionGetTicket(i);
      if(ticket == 0) continue;
      FileWrite(h, ticket, PositionGetString(POSITION_SYMBOL), PositionGetInteger(POSITION_TYPE),
                PositionGetDouble(POSITION_VOLUME), PositionGetDouble(POSITION_SL), PositionGetDouble(POSITION_TP));
     }
   FileClose(h);
  }

// Opens what the master opened (tagged with the master's ticket) and closes what it closed.
void Follow()
  {
   int h = FileOpen(FileName(), FILE_READ | FILE_CSV | FILE_COMMON | FILE_SHARE_READ | FILE_SHARE_WRITE, ',');
   if(h == INVALID_HANDLE) return;
   string open = ";";
   while(!FileIsEnding(h))
     {
      string ticket = FileReadString(h), symbol = FileReadString(h) + InpSuffix;
      int type = (int)FileReadNumber(h);
      double lots = MathMin(FileReadNumber(h) * InpLotScale, InpMaxLots);
      double sl = FileReadNumber(h), tp = FileReadNumber(h);
      open += ticket + ";";
      if(!Copied(ticket)) Open(symbol, type, NormalizeDouble(lots, 2), sl, tp, "TC#" + ticket);
     }
   FileClose(h);
   CloseGone(open);
  }

bool Copied(const string ticket)
  {
   for(int i = PositionsTotal() - 1; i >= 0; i--)
      if(PositionGetTicket(i) > 0 && PositionGetString(POSITION_COMMENT) == "TC#" + ticket) return true;
   return false;
  }

void Open(const string symbol, int type, double lots, double sl, double tp, const string tag)
  {
   trade.SetDeviationInPoints(InpSlippage);
   bool done = type == POSITION_TYPE_BUY ? trade.Buy(lots, symbol, 0, sl, tp, tag)
                                         : trade.Sell(lots, symbol, 0, sl, tp, tag);
   if(!done) Print("Trade Copier: could not copy ", tag, " (", trade.ResultRetcodeDescription(), ")");
  }

void CloseGone(const string open)
  {
   for(int i = PositionsTotal() - 1; i >= 0; i--)
     {
      ulong ticket = PositionGetTicket(i);
      string tag = PositionGetString(POSITION_COMMENT);
      if(ticket == 0 || StringFind(tag, "TC#") != 0) continue;
      if(StringFind(open, ";" + StringSubstr(tag, 3) + ";") < 0) trade.PositionClose(ticket);
     }
  }
