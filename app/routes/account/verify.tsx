import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useRevalidator, useRouteLoaderData, useSearchParams } from "react-router";
import { AuthCard } from "~/components/auth-card";
import { Alert } from "~/components/ui/alert";
import { TextLink } from "~/components/ui/text-link";
import { api } from "~/lib/api";
import { pageTitle } from "~/lib/meta";
import { getInstance } from "~/middleware/i18next";
import type { loader as rootLoader } from "~/root";
import type { Route } from "./+types/verify";

export function loader({ context }: Route.LoaderArgs) {
  return { pageTitle: getInstance(context).t("verify.title") };
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
  return pageTitle(matches, loaderData?.pageTitle);
}

/** Tokens are single-use: one POST per link per page load, whatever the effect re-runs. */
const attempts = new Map<string, Promise<boolean>>();

function verifyOnce(token: string, email: string): Promise<boolean> {
  const id = `${token}\n${email}`;
  let attempt = attempts.get(id);
  if (!attempt) {
    attempt = api("/api/account/verify", { method: "POST", body: { token, email } }).then(
      () => true,
      () => false,
    );
    attempts.set(id, attempt);
  }
  return attempt;
}

export default function Verify() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const revalidator = useRevalidator();
  // Signed in already (a link opened again after it signed the user in): onwards into the site, not to log in.
  const user = useRouteLoaderData<typeof rootLoader>("root")?.user ?? null;
  const token = params.get("token") ?? "";
  const email = params.get("email") ?? "";
  const [state, setState] = useState<"pending" | "ok" | "failed">(token && email ? "pending" : "failed");

  useEffect(() => {
    if (!token || !email) return;
    let live = true;
    void verifyOnce(token, email).then((ok) => {
      if (!live) return;
      setState(ok ? "ok" : "failed");
      // The header shows the newly signed-in user.
      if (ok) void revalidator.revalidate();
    });
    return () => {
      live = false;
    };
    // The revalidator changes identity on every navigation state change; the POST depends on the link only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [token, email]);

  return (
    <AuthCard title={t("verify.title")}>
      {state === "pending" ? (
        <p role="status" className="py-6 text-center text-zinc-600 dark:text-zinc-400">
          {t("verify.pending")}
        </p>
      ) : state === "ok" ? (
        <>
          <Alert tone="success" title={t("verify.successTitle")}>
            {t("verify.success")}
          </Alert>
          <p className="mt-6 text-sm">
            <TextLink to="/">{t("verify.home")}</TextLink>
          </p>
        </>
      ) : (
        <>
          <Alert tone="error" title={t("verify.failedTitle")}>
            {t("verify.failed")}
          </Alert>
          {user ? (
            <p className="mt-6 text-sm">
              {t("verify.signedInAs", { user: user.userName })} <TextLink to="/">{t("verify.home")}</TextLink>
            </p>
          ) : (
            <p className="mt-6 text-sm">
              <TextLink to="/account/login">{t("verify.toLogin")}</TextLink>
            </p>
          )}
        </>
      )}
    </AuthCard>
  );
}
