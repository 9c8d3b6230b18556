// What other workspace features use of the products folder: the status and kind labels.
export { kindLabels, statusLabels, statusStyles } from './labels.ts';
