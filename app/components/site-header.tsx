import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, NavLink, useLocation, useNavigate, useRevalidator } from "react-router";
import { LanguageSwitch } from "~/components/language-switch";
import { ThemeSwitch } from "~/components/theme-switch";
import { buttonClass } from "~/components/ui/button";
import type { Role } from "~/core/enums";
import { api } from "~/lib/api";
import { clearCacheAndReload, clearListCaches } from "~/lib/cache";
import type { ThemePreference } from "~/lib/theme";

export interface ShellUser {
  userName: string;
  role: Role;
  avatar: string | null;
}

const tabClass = ({ isActive }: { isActive: boolean }) =>
  `touch-target flex items-center rounded-md px-3 py-2 text-sm font-medium transition-colors ${
    isActive
      ? "bg-primary-50 text-primary-800 dark:bg-primary-950 dark:text-primary-200"
      : "text-zinc-700 hover:bg-zinc-100 hover:text-zinc-900 dark:text-zinc-300 dark:hover:bg-zinc-800 dark:hover:text-white"
  }`;

export function SiteHeader({
  title,
  logoUrl,
  user,
  theme,
}: {
  title: string;
  logoUrl: string | null;
  user: ShellUser | null;
  theme: ThemePreference;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const location = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const [openedAt, setOpenedAt] = useState(location.key);
  // Following a link closes the small-screen menu.
  if (menuOpen && openedAt !== location.key) {
    setMenuOpen(false);
  }
  const menuButton = useRef<HTMLButtonElement>(null);
  const loginLink = useRef<HTMLAnchorElement>(null);
  // After a log-out the pressed button is gone: the focus goes to the Log in link that took its place, or,
  // where that is inside the closed small-screen menu, to the menu's button; a polite status says it.
  const [loggedOut, setLoggedOut] = useState(false);
  const focusAfterLogout = useRef(false);
  useEffect(() => {
    // The router commits the signed-out page in a transition: this waits for it, not for the click.
    if (!focusAfterLogout.current || user) return;
    focusAfterLogout.current = false;
    const login = loginLink.current;
    (login && login.getClientRects().length > 0 ? login : menuButton.current)?.focus();
  }, [loggedOut, user]);

  const tabs = [
    { to: "/", label: t("nav.home"), end: true },
    { to: "/games", label: t("nav.games") },
    { to: "/posts", label: t("nav.posts") },
    { to: "/teams", label: t("nav.teams") },
    { to: "/about", label: t("nav.about") },
    // The admin area's tab stays current on every admin page, not only under its link's own path.
    ...(user?.role === "Admin" ? [{ to: "/admin/games", label: t("nav.admin"), section: "/admin" }] : []),
  ];
  const inSection = (section: string) => location.pathname === section || location.pathname.startsWith(`${section}/`);

  async function logout() {
    focusAfterLogout.current = true;
    setLoggedOut(true);
    try {
      await api("/api/account/logout", { method: "POST" });
    } catch {
      // An expired session is already logged out; the page is refreshed either way.
    }
    // The cached lists hold what this user saw (their teams, admin lists): not for whoever uses the browser next.
    clearListCaches();
    await navigate("/");
    await revalidator.revalidate();
  }

  // The tabs and the account entries share one row from lg (74em): below it, with a 15-character user
  // name, they did not fit and the row wrapped (1024–1120 px); there the menu button opens them.
  return (
    <header
      className="sticky top-0 z-30 border-b border-zinc-200 bg-white/90 backdrop-blur dark:border-zinc-800 dark:bg-zinc-950/90"
      onKeyDown={(event) => {
        // Escape closes the small-screen menu from anywhere in it, and the focus goes back to its button.
        if (event.key !== "Escape" || !menuOpen) return;
        setMenuOpen(false);
        menuButton.current?.focus();
      }}
    >
      <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-4 gap-y-2 px-4 py-2">
        <Link to="/" className="touch-target flex items-center gap-2 rounded-md py-1 text-lg font-semibold tracking-tight">
          {logoUrl ? (
            <img src={logoUrl} alt="" className="size-7 rounded" />
          ) : (
            <span aria-hidden="true" className="grid size-7 place-items-center rounded bg-primary-600 text-sm text-on-primary-600 dark:bg-primary-500 dark:text-on-primary-500">
              ⚑
            </span>
          )}
          <span>{title}</span>
        </Link>

        <button
          ref={menuButton}
          type="button"
          className={buttonClass("ghost", "ms-auto lg:hidden")}
          aria-expanded={menuOpen}
          aria-controls="site-menu"
          onClick={() => {
            setMenuOpen(!menuOpen);
            setOpenedAt(location.key);
          }}
        >
          {menuOpen ? t("nav.closeMenu") : t("nav.menu")}
        </button>

        <div
          id="site-menu"
          className={`${menuOpen ? "flex" : "hidden"} w-full flex-col gap-3 pb-2 lg:flex lg:w-auto lg:flex-1 lg:flex-row lg:items-center lg:pb-0`}
        >
          <nav aria-label={t("nav.label")} className="flex flex-col gap-1 lg:flex-row">
            {tabs.map((tab) =>
              tab.section ? (
                <Link key={tab.to} to={tab.to} aria-current={inSection(tab.section) ? "page" : undefined} className={tabClass({ isActive: inSection(tab.section) })}>
                  {tab.label}
                </Link>
              ) : (
                <NavLink key={tab.to} to={tab.to} end={tab.end} className={tabClass}>
                  {tab.label}
                </NavLink>
              ),
            )}
          </nav>

          <div className="flex flex-wrap items-center gap-2 lg:ms-auto">
            <LanguageSwitch />
            <ThemeSwitch preference={theme} />
            <button type="button" className={buttonClass("ghost", "px-3")} onClick={clearCacheAndReload}>
              {t("nav.clearCache")}
            </button>
            {user ? (
              <>
                <NavLink to="/account/profile" className={tabClass}>
                  <span className="sr-only">{t("nav.profileOf", { user: user.userName })}</span>
                  <span className="inline-flex items-center gap-2" aria-hidden="true">
                    {user.avatar ? <img src={user.avatar} alt="" className="size-6 rounded-full object-cover" /> : null}
                    <span>{user.userName}</span>
                  </span>
                </NavLink>
                <button type="button" className={buttonClass("secondary", "px-3")} onClick={() => void logout()}>
                  {t("nav.logout")}
                </button>
              </>
            ) : (
              <Link ref={loginLink} to="/account/login" className={buttonClass("primary", "px-3")}>
                {t("nav.login")}
              </Link>
            )}
          </div>
        </div>
      </div>
      <p role="status" className="sr-only">
        {loggedOut && !user ? t("nav.loggedOut") : ""}
      </p>
    </header>
  );
}
