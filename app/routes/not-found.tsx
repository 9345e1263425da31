import { useTranslation } from "react-i18next";
import { data, Link } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { pageTitle } from "~/lib/meta";
import { getInstance } from "~/middleware/i18next";
import type { Route } from "./+types/not-found";

export function loader({ context }: Route.LoaderArgs) {
  return data({ pageTitle: getInstance(context).t("notFound.title") }, { status: 404 });
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
  return pageTitle(matches, loaderData?.pageTitle);
}

export default function NotFound() {
  const { t } = useTranslation();
  return (
    <section className="mx-auto max-w-xl py-16 text-center">
      <p className="font-mono text-6xl font-bold text-primary-600 dark:text-primary-400">404</p>
      <h1 className="mt-4 text-2xl font-semibold tracking-tight">{t("notFound.title")}</h1>
      <p className="mt-2 text-zinc-700 dark:text-zinc-300">{t("notFound.message")}</p>
      <Link to="/" className={buttonClass("primary", "mt-8")}>
        {t("notFound.home")}
      </Link>
    </section>
  );
}
