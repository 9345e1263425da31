import { env } from "cloudflare:workers";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useRevalidator, useSearchParams } from "react-router";
import { requireUser } from "~/.server/auth/guard";
import { AuthCard } from "~/components/auth-card";
import { Alert } from "~/components/ui/alert";
import { TextLink } from "~/components/ui/text-link";
import { api, errorMessage } from "~/lib/api";
import { pageTitle } from "~/lib/meta";
import { getInstance } from "~/middleware/i18next";
import type { Route } from "./+types/confirm";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, env);
  return { pageTitle: getInstance(context).t("confirmEmail.title") };
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
  return pageTitle(matches, loaderData?.pageTitle);
}

/** Tokens are single-use: one POST per link per page load, whatever the effect re-runs. */
const attempts = new Map<string, Promise<string | null>>();

/** Resolves to null on success, else the server's message. */
function confirmOnce(token: string, email: string): Promise<string | null> {
  const id = `${token}\n${email}`;
  let attempt = attempts.get(id);
  if (!attempt) {
    attempt = api("/api/account/mailchangeconfirm", { method: "POST", body: { token, email } }).then(
      () => null,
      (error: unknown) => errorMessage(error),
    );
    attempts.set(id, attempt);
  }
  return attempt;
}

export default function ConfirmEmail() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const revalidator = useRevalidator();
  const token = params.get("token") ?? "";
  const email = params.get("email") ?? "";
  const [state, setState] = useState<{ status: "pending" | "ok" | "failed"; message?: string }>(
    token && email ? { status: "pending" } : { status: "failed" },
  );

  useEffect(() => {
    if (!token || !email) return;
    let live = true;
    void confirmOnce(token, email).then((error) => {
      if (!live) return;
      setState(error === null ? { status: "ok" } : { status: "failed", message: error });
      if (error === null) void revalidator.revalidate();
    });
    return () => {
      live = false;
    };
    // The revalidator changes identity on every navigation state change; the POST depends on the link only.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [token, email]);

  return (
    <AuthCard title={t("confirmEmail.title")}>
      {state.status === "pending" ? (
        <p role="status" className="py-6 text-center text-zinc-600 dark:text-zinc-400">
          {t("confirmEmail.pending")}
        </p>
      ) : state.status === "ok" ? (
        <Alert tone="success" title={t("confirmEmail.successTitle")}>
          {t("confirmEmail.success")}
        </Alert>
      ) : (
        <Alert tone="error" title={t("confirmEmail.failedTitle")}>
          {state.message && state.message !== t("confirmEmail.failedTitle") ? state.message : t("confirmEmail.failed")}
        </Alert>
      )}
      <p className="mt-6 text-sm">
        <TextLink to="/account/profile">{t("confirmEmail.toProfile")}</TextLink>
      </p>
    </AuthCard>
  );
}
