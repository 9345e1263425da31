import { env } from "cloudflare:workers";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { getCurrentUser } from "~/.server/auth/session";
import { createDb } from "~/.server/db/client";
import { listPosts } from "~/.server/services/posts";
import { PostCard } from "~/components/posts/post-card";
import { buttonClass } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { pageTitle } from "~/lib/meta";
import { getInstance } from "~/middleware/i18next";
import type { Route } from "./+types/index";

/** Posts are read on the server (pinned first, then newest), so the list paints without a round trip. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const [user, posts] = await Promise.all([getCurrentUser(request, env), listPosts(createDb(env.DB))]);
  return { pageTitle: getInstance(context).t("posts.title"), posts, isAdmin: user?.role === "Admin" };
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
  return pageTitle(matches, loaderData?.pageTitle);
}

export default function PostsPage({ loaderData: { posts, isAdmin } }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <div className="mx-auto max-w-4xl space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">{t("posts.title")}</h1>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("posts.subtitle")}</p>
        </div>
        {isAdmin ? (
          <Link to="/posts/new/edit" className={buttonClass("primary")}>
            {t("posts.newPost")}
          </Link>
        ) : null}
      </div>
      {posts.length === 0 ? (
        <Card className="text-center text-sm text-zinc-600 dark:text-zinc-400">{t("posts.empty")}</Card>
      ) : (
        <div className="space-y-4">
          {posts.map((post) => (
            <PostCard key={post.id} post={post} />
          ))}
        </div>
      )}
    </div>
  );
}
