import { useTranslation } from "react-i18next";
import { useRouteLoaderData } from "react-router";
import type { loader as rootLoader } from "~/root";

export default function Home() {
  const { t } = useTranslation();
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const title = root?.config.title ?? t("app.name");
  const slogan = root?.config.slogan;

  return (
    <section className="py-12 sm:py-20">
      <p className="text-sm font-semibold uppercase tracking-widest text-primary-700 dark:text-primary-300">
        {t("home.eyebrow")}
      </p>
      <h1 className="mt-3 text-4xl font-bold tracking-tight sm:text-5xl">{t("home.welcome", { title })}</h1>
      {slogan ? <p className="mt-4 max-w-2xl text-lg text-zinc-700 dark:text-zinc-300">{slogan}</p> : null}
    </section>
  );
}
