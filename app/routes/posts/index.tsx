import { env } from "cloudflare:workers";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { getCurrentUser } from "~/.server/auth/session";
import { PostCard } from "~/components/posts/post-card";
import { LoadingStatus } from "~/components/teams/loading";
import { buttonClass } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import type { PostInfo } from "~/core/schemas/post";
import { arrayOf, recordWith } from "~/core/ui/list-shape";
import { api } from "~/lib/api";
import { loadCached, useCachedList } from "~/lib/list-cache";
import { pageTitle } from "~/lib/meta";
import { getInstance } from "~/middleware/i18next";
import type { Route } from "./+types/index";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await getCurrentUser(request, env);
  return { pageTitle: getInstance(context).t("posts.title"), isAdmin: user?.role === "Admin" };
}

const POSTS_KEY = "posts";
const fetchPosts = (signal?: AbortSignal) => api<PostInfo[]>("/api/posts", { signal });
/** What the page reads of the list: anything else is neither cached nor shown. */
const POSTS_SHAPE = arrayOf(recordWith<PostInfo>({ id: "string", title: "string", tags: "array", time: "number" }));

/**
 * Posts (pinned first, then newest) from GET /api/posts in the browser: on reload the list paints from the
 * browser cache and refreshes in the background every 10 s, keeping the previous rows meanwhile (rules.md §15).
 */
export async function clientLoader({ request, serverLoader }: Route.ClientLoaderArgs) {
  const [server, posts] = await Promise.all([serverLoader(), loadCached(POSTS_KEY, () => fetchPosts(request.signal), POSTS_SHAPE)]);
  return { ...server, posts };
}
clientLoader.hydrate = true as const;

// No HydrateFallback: the page's title is in the server's HTML (DECISIONS.md, "Server-side titles").
export function meta({ matches, loaderData }: Route.MetaArgs) {
  return pageTitle(matches, loaderData?.pageTitle);
}

export default function PostsPage({ loaderData }: Route.ComponentProps) {
  // Server-rendered data carries no posts; the browser loader fills them in.
  if (!("posts" in loaderData)) return <LoadingStatus />;
  return <PostsPageView loaderData={loaderData} />;
}

function PostsPageView({ loaderData }: { loaderData: Awaited<ReturnType<typeof clientLoader>> }) {
  const { t } = useTranslation();
  const { isAdmin } = loaderData;
  const { data: posts } = useCachedList(POSTS_KEY, fetchPosts, { initial: loaderData.posts.data, stale: loaderData.posts.fromCache, shape: POSTS_SHAPE });
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
