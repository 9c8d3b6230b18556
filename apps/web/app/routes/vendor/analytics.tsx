import { AnalyticsScreen } from '../../features/vendor/analytics/screen.tsx';

export default AnalyticsScreen;
