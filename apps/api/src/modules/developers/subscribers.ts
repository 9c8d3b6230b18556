export { developersSubscribers } from './webhook-events.ts';
