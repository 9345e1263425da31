import { env } from "cloudflare:workers";
import { useTranslation } from "react-i18next";
import { createDb } from "~/.server/db/client";
import { getPlatformConfig } from "~/.server/services/config";
import { Markdown } from "~/components/markdown";
import { pageTitle } from "~/lib/meta";
import { getInstance } from "~/middleware/i18next";
import type { Route } from "./+types/about";

/** The platform description (globalConfig.description, Markdown), written in the admin settings. */
export async function loader({ context }: Route.LoaderArgs) {
  const { globalConfig } = await getPlatformConfig(createDb(env.DB));
  return { pageTitle: getInstance(context).t("about.title"), description: globalConfig.description };
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
  return pageTitle(matches, loaderData?.pageTitle);
}

export default function AboutPage({ loaderData: { description } }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <h1 className="sr-only">{t("about.title")}</h1>
      {description.trim() ? (
        <Markdown source={description} />
      ) : (
        <p className="text-zinc-600 dark:text-zinc-400">{t("about.empty")}</p>
      )}
    </div>
  );
}
