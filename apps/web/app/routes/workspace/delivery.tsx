import { DeliveryHub } from '../../features/workspace/delivery/hub.tsx';

export default DeliveryHub;
