import { TradingViewSetup } from '../../features/vendor/delivery/tradingview.tsx';

export default TradingViewSetup;
