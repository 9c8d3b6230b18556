// What other workspace features use of the course builder's folder.
export { ConfirmButton, UploadControl, type UploadRun } from './components.tsx';
export { formatBytes } from './outline.ts';
