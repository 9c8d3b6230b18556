import { DeliveryHub } from '../../features/vendor/delivery/hub.tsx';

export default DeliveryHub;
