// Demo data: Alpha Edge Labs' TradingView indicators deliver invite-only scripts, so buying one on
// first start asks for a TradingView username and fills the vendor's access queue (ADR 034).
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

const demoScripts: Array<{ id: string; product: string; name: string; url: string }> = [
  {
    id: 'tvs_demo_rsi_divergence',
    product: 'RSI Divergence Pro',
    name: 'RSI Divergence Pro',
    url: 'https://www.tradingview.com/script/Rd7Kq2Lm-RSI-Divergence-Pro/',
  },
  {
    id: 'tvs_demo_rsi_alerts',
    product: 'Divergence Add-on: Alerts Pack',
    name: 'RSI Divergence Pro Alerts',
    url: 'https://www.tradingview.com/script/Ap4Nx8Wc-RSI-Divergence-Pro-Alerts/',
  },
  {
    id: 'tvs_demo_supertrend',
    product: 'Supertrend Ribbon',
    name: 'Supertrend Ribbon',
    url: 'https://www.tradingview.com/script/St9Rb3Kv-Supertrend-Ribbon/',
  },
  {
    id: 'tvs_demo_smc_blocks',
    product: 'Smart Money Concepts Suite',
    name: 'SMC Order Blocks & FVG',
    url: 'https://www.tradingview.com/script/Ob5Fv2Qz-SMC-Order-Blocks-FVG/',
  },
  {
    id: 'tvs_demo_smc_sweeps',
    product: 'Smart Money Concepts Suite',
    name: 'SMC Liquidity Sweeps',
    url: 'https://www.tradingview.com/script/Lq8Sw6Tp-SMC-Liquidity-Sweeps/',
  },
  {
    id: 'tvs_demo_vw_macd',
    product: 'Volume Weighted MACD',
    name: 'Volume Weighted MACD',
    url: 'https://www.tradingview.com/script/Vm3Cd7Hx-Volume-Weighted-MACD/',
  },
];

/** Idempotent: the scripts and their products, for the demo vendor's products that exist. */
export async function seedDemoTradingView(db: Db, vendorUrl = 'alpha-edge'): Promise<void> {
  for (const s of demoScripts) {
    await db.execute(sql`
      with product as (
        select p.id, p.vendor_id from products p join vendors v on v.id = p.vendor_id
        where v.vendor_url = ${vendorUrl} and p.title = ${s.product}
        order by p.id limit 1
      ), script as (
        insert into tradingview_scripts (id, vendor_id, name, url)
        select ${s.id}, vendor_id, ${s.name}, ${s.url} from product
        on conflict do nothing
      )
      insert into tradingview_product_scripts (product_id, script_id)
      select id, ${s.id} from product
      on conflict do nothing`);
  }
}
