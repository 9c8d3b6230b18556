// The one way a page starts a download (lib/download.ts); here so this feature's tests replace it.
export { startDownload } from '../../lib/download.ts';
