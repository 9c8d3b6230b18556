// The deliverables feature's public entry (issue 29): what owners download, on the library and order pages.
export { ProductDelivery, PurchaseDeliveries } from './components.tsx';
export { unsubscribeVersionMails } from './api.ts';
