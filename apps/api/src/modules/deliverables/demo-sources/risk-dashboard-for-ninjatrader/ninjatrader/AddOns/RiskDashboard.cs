// Risk Dashboard {{version}}: a daily loss limit, a trade cap and a lock-out for NinjaTrader 8
// accounts. Open it from Control Center → New → Risk Dashboard. QuantForge, sold on Tradeshelf.
// Changes
// {{changelog}}
#region Using declarations
using System;
using System.Linq;
using System.Windows;
using System.Windows.Controls;
using NinjaTrader.Cbi;
using NinjaTrader.Gui.Tools;
using NinjaTrader.Gui;
#endregion

namespace NinjaTrader.NinjaScript.AddOns.QuantForge
{
    public class RiskDashboard : AddOnBase
    {
        private NTMenuItem menuItem;
        public static double DailyLossLimit = 500;   // account currency
        public static int MaxTradesPerDay = 8;

        protected override void OnStateChange()
        {
            if (State == State.SetDefaults)
            {
                Name = "Risk Dashboard";
                Description = "Daily loss limit, trade cap and lock-out. v{{version}}";
            }
            else if (State == State.Active)
                foreach (Account account in Account.All) account.ExecutionUpdate += OnExecution;
            else if (State == State.Terminated)
                foreach (Account account in Account.All) account.ExecutionUpdate -= OnExecution;
        }

        protected override void OnWindowCreated(Window window)
        {
            if (!(window is ControlCenter cc)) return;
            var newMenu = cc.FindFirst("ControlCenterMenuItemNew") as NTMenuItem;
            if (newMenu == null) return;
            menuItem = new NTMenuItem { Header = "Risk Dashboard", Style = Application.Current.TryFindResource("MainMenuItem") as Style };
            menuItem.Click += (s, e) => Core.Globals.RandomDispatcher.BeginInvoke(new Action(() => new RiskDashboardWindow().Show()));
            newMenu.Items.Add(menuItem);
        }

        // After every fill: over the loss limit or the trade cap, flatten and refuse further orders today.
        private static void OnExecution(object sender, ExecutionEventArgs e)
        {
            var account = (Account)sender;
            double realized = account.Get(AccountItem.RealizedProfitLoss, Currency.UsDollar);
            int trades = account.Executions.Count(x => x.Time.Date == DateTime.Today && x.IsEntry);
            if (realized > -DailyLossLimit && trades <= MaxTradesPerDay) return;
            account.Flatten(account.Positions.Select(p => p.Instrument).ToArray());
            foreach (var order in account.Orders.Where(o => o.OrderState == OrderState.Working)) account.Cancel(new[] { order });
            NinjaTrader.Code.Output.Process($"Risk Dashboard: {account.Name} locked for today (P/L {realized:0.00}, {trades} trades).", PrintTo.OutputTab1);
        }
    }

    public class RiskDashboardWindow : NTWindow
    {
        public RiskDashboardWindow()
        {
            Caption = "Risk Dashboard";
            Width = 320;
            Height = 200;
            Content = new TextBlock
            {
                Margin = new Thickness(12),
                Text = $"Daily loss limit: {RiskDashboard.DailyLossLimit:0}\nTrades per day: {RiskDashboard.MaxTradesPerDay}",
            };
        }
    }
}
