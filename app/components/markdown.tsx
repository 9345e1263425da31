import { useMemo } from "react";
import { MarkdownHtml } from "~/components/markdown-html";
import { renderMarkdown } from "~/core/markdown";

/**
 * Renders user-written Markdown safely: the HTML comes only from renderMarkdown (app/core/markdown.ts),
 * which escapes raw HTML and drops dangerous URL protocols, so the same output is produced on the
 * server and in the browser without a DOM. Markdown known to the server can be rendered there instead
 * and shown with MarkdownHtml, which keeps the parser out of the page's JavaScript.
 */
export function Markdown({
  source,
  className = "text-zinc-800 dark:text-zinc-200",
}: {
  source: string | null | undefined;
  /** Extra classes; replaces the default text colour. */
  className?: string;
}) {
  const html = useMemo(() => renderMarkdown(source), [source]);
  return <MarkdownHtml html={html} className={className} />;
}
