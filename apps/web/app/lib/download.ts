/**
 * Sends the browser to a signed download link (the file is an attachment: the page stays). Its own
 * module so tests replace it.
 */
export function startDownload(url: string): void {
  window.location.assign(url);
}
