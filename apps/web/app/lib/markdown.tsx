/**
 * Markdown the API rendered and sanitised (the `…Html` fields, ADR 056), inserted as it is: the public
 * pages ship no Markdown parser. Never pass anything else here. Styled by `.markdown` in app.css.
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
      className={`markdown ${className}`}
      data-testid={testId}
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
