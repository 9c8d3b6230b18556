import { TradingViewSetup } from '../../features/workspace/delivery/tradingview.tsx';

export default TradingViewSetup;
