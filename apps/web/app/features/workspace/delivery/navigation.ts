/** Sends the browser to another site (Discord's page). Its own module so tests replace it. */
export function leaveFor(url: string): void {
  window.location.assign(url);
}
