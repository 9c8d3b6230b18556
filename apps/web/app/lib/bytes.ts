// Loaded with the screens that show file sizes, not in the shell every page loads.
/** `1.4 MB`, `820 KB`, `12 B`: a file's size as every page shows it. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
