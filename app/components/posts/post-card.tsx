import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { PostInfo } from "~/core/schemas/post";
import { LocalTime } from "./local-time";

export function TagList({ tags }: { tags: string[] }) {
  const { t } = useTranslation();
  if (tags.length === 0) return null;
  return (
    <ul aria-label={t("posts.tags")} className="flex flex-wrap gap-1.5">
      {tags.map((tag) => (
        <li key={tag} className="rounded-full bg-zinc-100 px-2 py-0.5 text-xs text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300">
          {tag}
        </li>
      ))}
    </ul>
  );
}

export function PinnedBadge() {
  const { t } = useTranslation();
  return (
    <span className="rounded-full bg-primary-600 px-2 py-0.5 text-xs font-medium text-on-primary-600 dark:bg-primary-500 dark:text-on-primary-500">
      {t("posts.pinned")}
    </span>
  );
}

/** A post in a list: title (link), pin, summary, author, time and tags. */
export function PostCard({ post, headingLevel = 2 }: { post: PostInfo; headingLevel?: 2 | 3 }) {
  const { t } = useTranslation();
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <article className="rounded-lg border border-zinc-200 bg-white p-5 shadow-sm dark:border-zinc-800 dark:bg-zinc-900/60">
      <div className="flex flex-wrap items-center gap-2">
        {post.isPinned ? <PinnedBadge /> : null}
        <Heading className="min-w-0 text-lg font-semibold tracking-tight wrap-anywhere">
          <Link to={`/posts/${post.id}`} className="hover:text-primary-700 hover:underline dark:hover:text-primary-300">
            {post.title}
          </Link>
        </Heading>
      </div>
      {post.summary ? <p className="mt-2 text-sm text-zinc-700 wrap-anywhere dark:text-zinc-300">{post.summary}</p> : null}
      <div className="mt-3 flex flex-wrap items-center gap-x-3 gap-y-2 text-xs text-zinc-600 dark:text-zinc-400">
        {post.authorName ? (
          <span className="inline-flex items-center gap-1.5">
            {post.authorAvatar ? <img src={post.authorAvatar} alt="" className="size-5 rounded-full object-cover" /> : null}
            {t("posts.by", { name: post.authorName })}
          </span>
        ) : null}
        <LocalTime ms={post.time} />
        <TagList tags={post.tags} />
      </div>
    </article>
  );
}
