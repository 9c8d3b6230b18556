// The account feature's public entry (docs/architecture.md#boundaries): other features import this file only.
export {
  DevicesSection,
  EmailSection,
  UsernameSection,
  useAccountSettings,
} from './components.tsx';
export { DataSection } from './data-section.tsx';
export { BillingSection } from './billing-section.tsx';
