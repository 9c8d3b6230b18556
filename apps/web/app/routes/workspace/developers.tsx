import { DevelopersPage } from '../../features/workspace/developers/developers-page.tsx';

export default DevelopersPage;
