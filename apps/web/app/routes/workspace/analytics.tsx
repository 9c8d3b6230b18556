import { AnalyticsScreen } from '../../features/workspace/analytics/screen.tsx';

export default AnalyticsScreen;
