// No Markdown parser here: pages whose Markdown is rendered on the server (the root footer) ship only this.

// Typography for rendered Markdown, for dark and light themes (Tailwind has no prose plugin here).
const PROSE = [
  "min-w-0 break-words leading-relaxed",
  "[&>*+*]:mt-4",
  "[&_h1]:text-2xl [&_h1]:font-bold [&_h1]:tracking-tight [&_h1]:mt-8",
  "[&_h2]:text-xl [&_h2]:font-semibold [&_h2]:mt-7 [&_h2]:border-b [&_h2]:border-zinc-200 [&_h2]:pb-1 dark:[&_h2]:border-zinc-800",
  "[&_h3]:text-lg [&_h3]:font-semibold [&_h3]:mt-6",
  "[&_h4]:font-semibold [&_h5]:font-semibold [&_h6]:font-semibold",
  "[&>:first-child]:mt-0",
  "[&_a]:text-primary-700 [&_a]:underline [&_a]:underline-offset-2 hover:[&_a]:text-primary-600",
  "dark:[&_a]:text-primary-300 dark:hover:[&_a]:text-primary-200",
  "[&_ul]:list-disc [&_ul]:ps-6 [&_ol]:list-decimal [&_ol]:ps-6 [&_li]:mt-1",
  "[&_li>input]:me-2 [&_li:has(>input)]:list-none",
  "[&_blockquote]:border-s-4 [&_blockquote]:border-zinc-300 [&_blockquote]:ps-4 [&_blockquote]:text-zinc-600",
  "dark:[&_blockquote]:border-zinc-700 dark:[&_blockquote]:text-zinc-400",
  "[&_code]:rounded [&_code]:bg-zinc-100 [&_code]:px-1 [&_code]:py-0.5 [&_code]:font-mono [&_code]:text-[0.9em]",
  "dark:[&_code]:bg-zinc-800",
  "[&_pre]:overflow-x-auto [&_pre]:rounded-md [&_pre]:bg-zinc-100 [&_pre]:p-4 [&_pre]:text-sm dark:[&_pre]:bg-zinc-900",
  "[&_pre_code]:bg-transparent [&_pre_code]:p-0",
  "[&_table]:block [&_table]:max-w-full [&_table]:overflow-x-auto [&_table]:border-collapse [&_table]:text-sm",
  "[&_th]:border [&_th]:border-zinc-300 [&_th]:bg-zinc-100 [&_th]:px-3 [&_th]:py-1.5 [&_th]:text-start [&_th]:font-semibold",
  "dark:[&_th]:border-zinc-700 dark:[&_th]:bg-zinc-900",
  "[&_td]:border [&_td]:border-zinc-300 [&_td]:px-3 [&_td]:py-1.5 dark:[&_td]:border-zinc-700",
  "[&_img]:max-w-full [&_img]:rounded-md",
  "[&_hr]:border-zinc-200 dark:[&_hr]:border-zinc-800",
].join(" ");

/**
 * Shows HTML produced by renderMarkdown (app/core/markdown.ts) with the Markdown typography. Only pass
 * renderMarkdown's output: it is inserted as HTML.
 */
export function MarkdownHtml({
  html,
  className = "text-zinc-800 dark:text-zinc-200",
}: {
  html: string;
  /** Extra classes; replaces the default text colour. */
  className?: string;
}) {
  if (!html) return null;
  return <div className={`${PROSE} ${className}`} data-markdown="" dangerouslySetInnerHTML={{ __html: html }} />;
}
