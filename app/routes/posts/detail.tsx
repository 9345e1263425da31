import { env } from "cloudflare:workers";
import { useTranslation } from "react-i18next";
import { data, isRouteErrorResponse, Link } from "react-router";
import { getCurrentUser } from "~/.server/auth/session";
import { createDb } from "~/.server/db/client";
import { getPost } from "~/.server/services/posts";
import { Markdown } from "~/components/markdown";
import { LocalTime } from "~/components/posts/local-time";
import { PinnedBadge, TagList } from "~/components/posts/post-card";
import { buttonClass } from "~/components/ui/button";
import { AppError } from "~/core/errors";
import { pageTitle } from "~/lib/meta";
import { getInstance } from "~/middleware/i18next";
import type { Route } from "./+types/detail";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const t = getInstance(context).t;
  try {
    const [user, post] = await Promise.all([getCurrentUser(request, env), getPost(createDb(env.DB), params.postId.toLowerCase())]);
    return { post, isAdmin: user?.role === "Admin" };
  } catch (error) {
    // The page title travels with the refusal: meta has no loader data then.
    if (error instanceof AppError && error.status === 404) throw data({ message: t("posts.notFound"), title: t("notFound.title") }, { status: 404 });
    throw error;
  }
}

type Refusal = { message: string; title: string };
const refusalOf = (error: unknown): Refusal | null =>
  isRouteErrorResponse(error) && typeof error.data === "object" && error.data !== null && "message" in error.data ? (error.data as Refusal) : null;

export function meta({ matches, loaderData, error }: Route.MetaArgs) {
  return pageTitle(matches, loaderData?.post.title ?? refusalOf(error)?.title);
}

export default function PostPage({ loaderData: { post, isAdmin } }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <article className="mx-auto max-w-3xl space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <Link to="/posts" className="text-sm text-primary-700 hover:underline dark:text-primary-300">
          ← {t("posts.back")}
        </Link>
        {isAdmin ? (
          <Link to={`/posts/${post.id}/edit`} className={buttonClass("secondary")}>
            {t("posts.edit")}
          </Link>
        ) : null}
      </div>
      <header className="space-y-3 border-b border-zinc-200 pb-4 dark:border-zinc-800">
        <div className="flex flex-wrap items-center gap-2">
          {post.isPinned ? <PinnedBadge /> : null}
          <h1 className="text-3xl font-bold tracking-tight wrap-anywhere">{post.title}</h1>
        </div>
        {post.summary ? <p className="text-zinc-700 wrap-anywhere dark:text-zinc-300">{post.summary}</p> : null}
        <div className="flex flex-wrap items-center gap-x-3 gap-y-2 text-sm text-zinc-600 dark:text-zinc-400">
          {post.authorName ? (
            <span className="inline-flex items-center gap-1.5">
              {post.authorAvatar ? <img src={post.authorAvatar} alt="" className="size-6 rounded-full object-cover" /> : null}
              {t("posts.by", { name: post.authorName })}
            </span>
          ) : null}
          <LocalTime ms={post.time} />
          <TagList tags={post.tags} />
        </div>
      </header>
      <Markdown source={post.content} />
    </article>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const { t } = useTranslation();
  const message = refusalOf(error)?.message ?? t("error.unexpected");
  return (
    <div className="mx-auto max-w-3xl space-y-4">
      <h1 className="text-2xl font-semibold tracking-tight">{isRouteErrorResponse(error) && error.status === 404 ? t("notFound.title") : t("error.title")}</h1>
      <p className="text-zinc-700 dark:text-zinc-300">{message}</p>
      <Link to="/posts" className="text-sm text-primary-700 hover:underline dark:text-primary-300">
        ← {t("posts.back")}
      </Link>
    </div>
  );
}
