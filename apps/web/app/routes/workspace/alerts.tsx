import { AlertsPage } from '../../features/workspace/alerts/alerts-page.tsx';

export default AlertsPage;
