import { env } from "cloudflare:workers";
import { useTranslation } from "react-i18next";
import { NavLink, Outlet } from "react-router";
import { requireUser } from "~/.server/auth/guard";
import { WideOnly } from "~/components/layout/wide-only";
import type { Route } from "./+types/layout";

/** Every /admin route: the Admin guard (children guard themselves too) and the admin sub-navigation. */
export async function loader({ request }: Route.LoaderArgs) {
  await requireUser(request, env, "Admin");
  return null;
}

const sections = ["games", "teams", "users", "instances", "logs", "settings"] as const;

const tabClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-md px-3 py-1.5 text-sm font-medium ${
    isActive
      ? "bg-primary-600 text-on-primary-600 dark:bg-primary-500 dark:text-on-primary-500"
      : "text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800"
  }`;

export default function AdminLayout() {
  const { t } = useTranslation();
  return (
    <WideOnly minWidth="md">
      <nav aria-label={t("admin.nav.label")} className="mb-6 flex flex-wrap gap-1 border-b border-zinc-200 pb-3 dark:border-zinc-800">
        {sections.map((s) => (
          <NavLink key={s} to={`/admin/${s}`} className={tabClass}>
            {t(`admin.nav.${s}`)}
          </NavLink>
        ))}
      </nav>
      <Outlet />
    </WideOnly>
  );
}
