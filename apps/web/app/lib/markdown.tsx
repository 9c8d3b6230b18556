/**
 * Styles for Markdown rendered as HTML (headings, paragraphs, lists, emphasis, code, quotes, links):
 * one look for the public pages and the vendor editors' previews.
 */
export const markdownClass =
  'flex flex-col gap-3 break-words text-slate-300 [&_a]:text-brand-400 [&_a]:underline [&_blockquote]:border-l-2 [&_blockquote]:border-ink-600 [&_blockquote]:pl-3 [&_code]:rounded [&_code]:bg-ink-800 [&_code]:px-1 [&_code]:text-sm [&_h2]:mt-2 [&_h2]:text-lg [&_h2]:font-semibold [&_h2]:text-white [&_h3]:font-semibold [&_h3]:text-white [&_hr]:border-ink-700 [&_li]:mt-1 [&_ol]:list-decimal [&_ol]:pl-5 [&_pre]:overflow-x-auto [&_pre]:rounded-lg [&_pre]:bg-ink-800 [&_pre]:p-3 [&_pre_code]:bg-transparent [&_pre_code]:p-0 [&_strong]:text-slate-100 [&_ul]:list-disc [&_ul]:pl-5';

/**
 * Markdown the API rendered and sanitised (the `…Html` fields, ADR 056), inserted as it is: the public
 * pages ship no Markdown parser. Never pass anything else here.
 */
export function MarkdownHtml({
  html,
  className = '',
  testId,
}: {
  html: string;
  className?: string;
  testId?: string;
}) {
  return (
    <div
      className={`${markdownClass} ${className}`}
      data-testid={testId}
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
