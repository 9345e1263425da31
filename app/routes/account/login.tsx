import { env } from "cloudflare:workers";
import { useRef } from "react";
import { useTranslation } from "react-i18next";
import { Form, redirect, useNavigation, useSearchParams } from "react-router";
import { getCurrentUser } from "~/.server/auth/session";
import { formActionInProcess } from "~/.server/in-process-api";
import { captchaInfo, captchaSettingsFromEnv } from "~/.server/captcha/verify";
import { createDb } from "~/.server/db/client";
import { smtpConfigFromEnv } from "~/.server/mail/config";
import { getPlatformConfig } from "~/.server/services/config";
import { AuthCard } from "~/components/auth-card";
import { Captcha, useCaptcha } from "~/components/captcha";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { FieldErrors, TextField } from "~/components/ui/field";
import { TextLink } from "~/components/ui/text-link";
import { formText, safeRedirect } from "~/lib/account";
import { api, type ApiCall, errorMessage } from "~/lib/api";
import { useFocusInvalid } from "~/lib/focus-invalid";
import { keptValue } from "~/lib/kept-input";
import { pageTitle } from "~/lib/meta";
import { keepAfterUnchanged, unchanged } from "~/lib/revalidate";
import { useOneSubmitAtATime } from "~/lib/one-submit";
import { getInstance } from "~/middleware/i18next";
import type { Route } from "./+types/login";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await getCurrentUser(request, env);
  if (user) throw redirect(safeRedirect(new URL(request.url).searchParams.get("from")));
  // No way to register or recover offered that would only answer "closed" / "mail is not configured".
  const { allowRegister, useCaptcha: captchaOn } = (await getPlatformConfig(createDb(env.DB))).accountPolicy;
  return {
    pageTitle: getInstance(context).t("login.title"),
    registerOpen: allowRegister,
    mailEnabled: smtpConfigFromEnv(env) !== null,
    captcha: captchaInfo(captchaSettingsFromEnv(env), captchaOn),
  };
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
  return pageTitle(matches, loaderData?.pageTitle);
}

/** A refused or unsent action reads nothing again (app/lib/revalidate.ts): offline, the form and its input stay. */
export const shouldRevalidate = keepAfterUnchanged;

type FieldKey = "login.userNameRequired" | "password.empty";

/** The form's submission, through `call`: the API from the browser, or in process from the server action. */
async function submit(form: FormData, call: ApiCall) {
  const userName = formText(form, "userName").trim();
  const password = formText(form, "password");
  const challenge = formText(form, "challenge") || undefined;
  const fieldErrors: { userName?: FieldKey; password?: FieldKey } = {};
  if (!userName) fieldErrors.userName = "login.userNameRequired";
  if (!password) fieldErrors.password = "password.empty";
  if (fieldErrors.userName || fieldErrors.password) return unchanged({ fieldErrors, formError: null });

  try {
    await call("/api/account/login", { method: "POST", body: { userName, password, challenge } });
  } catch (error) {
    return unchanged({ fieldErrors, formError: errorMessage(error) });
  }
  // Every loader (the header's user included) runs again after an action.
  return redirect(safeRedirect(form.get("from")));
}

export async function clientAction({ request }: Route.ClientActionArgs) {
  return submit(await request.formData(), api);
}

/** The form posted before the page's JavaScript ran; a refusal keeps the user name (never the password or captcha token). */
export const action = formActionInProcess(submit, ["userName"]);

export default function Login({ actionData, loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const oneSubmit = useOneSubmitAtATime();
  // A refusal at a field moves the focus there, where its message stands (a screen reader then reads it).
  const formRef = useRef<HTMLFormElement>(null);
  useFocusInvalid(formRef, actionData);
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const from = params.get("from") ?? "";
  const reason = params.get("reason");
  const captcha = useCaptcha({ action: "login", failure: actionData?.formError ? actionData : null, info: loaderData.captcha });

  return (
    <AuthCard
      title={t("login.title")}
      footer={
        loaderData.registerOpen ? (
          <>
            {t("login.noAccount")}{" "}
            <TextLink to={from ? `/account/register?from=${encodeURIComponent(from)}` : "/account/register"}>
              {t("login.toRegister")}
            </TextLink>
          </>
        ) : undefined
      }
    >
      <div className="space-y-4">
        {reason === "password-changed" ? <Alert tone="info">{t("login.passwordChanged")}</Alert> : null}
        {actionData?.formError ? <Alert tone="error">{actionData.formError}</Alert> : null}
        <Form ref={formRef} method="post" className="space-y-4" noValidate onSubmit={oneSubmit}>
          <input type="hidden" name="from" value={from} />
          <FieldErrors refusal={actionData}>
            <TextField
              label={t("login.userName")}
              name="userName"
              autoComplete="username"
              required
              autoFocus
              defaultValue={keptValue(actionData, "userName")}
              error={actionData?.fieldErrors.userName ? t(actionData.fieldErrors.userName) : null}
            />
            <TextField
              label={t("login.password")}
              name="password"
              type="password"
              autoComplete="current-password"
              required
              error={actionData?.fieldErrors.password ? t(actionData.fieldErrors.password) : null}
            />
          </FieldErrors>
          {loaderData.mailEnabled ? (
            <p className="-mt-2 text-end text-sm">
              <TextLink to="/account/recovery">{t("login.forgotPassword")}</TextLink>
            </p>
          ) : (
            <p className="-mt-2 text-end text-xs text-zinc-600 dark:text-zinc-400">{t("login.forgotNoMail")}</p>
          )}
          <Captcha captcha={captcha} />
          <Button type="submit" className="w-full" disabled={busy || !captcha.ready}>
            {captcha.waiting ? t("captcha.wait") : busy ? t("login.submitting") : t("login.submit")}
          </Button>
        </Form>
      </div>
    </AuthCard>
  );
}
