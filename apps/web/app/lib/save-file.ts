/**
 * Saves a file the page fetched (a JSON export, a PDF) through the browser's own download. Only the
 * screens that offer a file import it, so it stays out of the shell.
 */
export function saveFile(file: Blob, name: string): void {
  const url = URL.createObjectURL(file);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}
