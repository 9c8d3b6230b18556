import type { ReactNode } from 'react';

/**
 * A deliberately small Markdown subset (headings, paragraphs, lists, **bold**, *italic*, links) rendered
 * to React elements: no HTML string is ever injected, so vendor text cannot run script.
 */
export function Markdown({ source }: { source: string }) {
  const blocks = source.replace(/\r\n/g, '\n').split(/\n{2,}/);
  return (
    <div className="flex flex-col gap-3 text-slate-300">
      {blocks.map((block, i) => {
        const lines = block.split('\n');
        const heading = /^(#{1,4})\s+(.*)$/.exec(block);
        if (heading && lines.length === 1) {
          const level = heading[1]!.length;
          const cls = 'font-semibold text-white ' + (level <= 2 ? 'text-lg mt-2' : 'text-base');
          return level <= 2 ? (
            <h2 key={i} className={cls}>
              {inline(heading[2]!)}
            </h2>
          ) : (
            <h3 key={i} className={cls}>
              {inline(heading[2]!)}
            </h3>
          );
        }
        if (lines.every((l) => /^\s*[-*]\s+/.test(l))) {
          return (
            <ul key={i} className="list-disc space-y-1 pl-5">
              {lines.map((l, j) => (
                <li key={j}>{inline(l.replace(/^\s*[-*]\s+/, ''))}</li>
              ))}
            </ul>
          );
        }
        return <p key={i}>{inline(lines.join(' '))}</p>;
      })}
    </div>
  );
}

function inline(text: string): ReactNode[] {
  const out: ReactNode[] = [];
  const re = /\*\*([^*]+)\*\*|\*([^*]+)\*|\[([^\]]+)\]\((https?:\/\/[^\s)]+)\)/g;
  let last = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) {
    if (m.index > last) out.push(text.slice(last, m.index));
    if (m[1]) out.push(<strong key={m.index}>{m[1]}</strong>);
    else if (m[2]) out.push(<em key={m.index}>{m[2]}</em>);
    else
      out.push(
        <a
          key={m.index}
          href={m[4]}
          rel="nofollow noopener noreferrer ugc"
          target="_blank"
          className="text-brand-400 underline"
        >
          {m[3]}
        </a>,
      );
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}
