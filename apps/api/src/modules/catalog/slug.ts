// The URL slug of a title: its own file so the seed and the demo pictures (which the seed
// re-exports) do not import each other (issue 28).
export function slugify(title: string): string {
  return title
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
}
