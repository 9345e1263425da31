import { env } from "cloudflare:workers";
import { useRef } from "react";
import { useTranslation } from "react-i18next";
import { Form, useNavigation } from "react-router";
import { captchaInfo, captchaSettingsFromEnv } from "~/.server/captcha/verify";
import { createDb } from "~/.server/db/client";
import { getPlatformConfig } from "~/.server/services/config";
import { formActionInProcess } from "~/.server/in-process-api";
import { AuthCard } from "~/components/auth-card";
import { Captcha, useCaptcha } from "~/components/captcha";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { FieldErrors, TextField } from "~/components/ui/field";
import { TextLink } from "~/components/ui/text-link";
import { formText } from "~/lib/account";
import { api, type ApiCall, errorMessage, fieldError } from "~/lib/api";
import { useFocusInvalid } from "~/lib/focus-invalid";
import { keptValue } from "~/lib/kept-input";
import { pageTitle } from "~/lib/meta";
import { keepAfterUnchanged, unchanged } from "~/lib/revalidate";
import { useOneSubmitAtATime } from "~/lib/one-submit";
import { getInstance } from "~/middleware/i18next";
import type { Route } from "./+types/recovery";

export async function loader({ context }: Route.LoaderArgs) {
  const { useCaptcha: captchaOn } = (await getPlatformConfig(createDb(env.DB))).accountPolicy;
  return { pageTitle: getInstance(context).t("recovery.title"), captcha: captchaInfo(captchaSettingsFromEnv(env), captchaOn) };
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
  return pageTitle(matches, loaderData?.pageTitle);
}

/** A refused or unsent action reads nothing again (app/lib/revalidate.ts): offline, the form and its input stay. */
export const shouldRevalidate = keepAfterUnchanged;

/** The form's field a server refusal can be shown at (an address the API refuses). */
const SERVER_FIELDS = ["email"] as const;

type ActionResult =
  | { sent: true; error?: undefined; emailError?: undefined; serverError?: undefined }
  | {
      sent: false;
      error: string | null;
      emailError?: "recovery.emailRequired";
      /** The server's refusal of the address, shown at it; a refusal of the request as a whole (captcha, mail off, too many requests) is `error`. */
      serverError?: { field: (typeof SERVER_FIELDS)[number]; message: string } | null;
    };

/** The form's submission, through `call`: the API from the browser, or in process from the server action. */
async function submit(form: FormData, call: ApiCall): Promise<ActionResult> {
  const email = formText(form, "email").trim();
  if (!email) return unchanged({ sent: false, error: null, emailError: "recovery.emailRequired" as const });
  try {
    await call("/api/account/recovery", { method: "POST", body: { email, challenge: formText(form, "challenge") || undefined } });
  } catch (error) {
    const serverError = fieldError(error, SERVER_FIELDS);
    return unchanged({ sent: false, error: serverError ? null : errorMessage(error), serverError });
  }
  return { sent: true };
}

export async function clientAction({ request }: Route.ClientActionArgs): Promise<ActionResult> {
  return submit(await request.formData(), api);
}

/** The form posted before the page's JavaScript ran; a refusal keeps the address (never the captcha token). */
export const action = formActionInProcess(submit, ["email"]);

export default function Recovery({ actionData, loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const oneSubmit = useOneSubmitAtATime();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  // A server refusal used the captcha's token up, whether it is shown at the field or above the form.
  const captcha = useCaptcha({ action: "recovery", failure: actionData?.error || actionData?.serverError ? actionData : null, info: loaderData.captcha });
  // A refusal at a field moves the focus there, where its message stands (a screen reader then reads it).
  const formRef = useRef<HTMLFormElement>(null);
  useFocusInvalid(formRef, actionData?.sent ? null : actionData);
  const footer = <TextLink to="/account/login">{t("recovery.backToLogin")}</TextLink>;

  if (actionData?.sent) {
    return (
      <AuthCard title={t("recovery.title")} footer={footer}>
        <Alert tone="success" title={t("recovery.sentTitle")}>
          {t("recovery.sent")}
        </Alert>
      </AuthCard>
    );
  }

  return (
    <AuthCard title={t("recovery.title")} footer={footer}>
      <div className="space-y-4">
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("recovery.intro")}</p>
        {actionData?.error ? <Alert tone="error">{actionData.error}</Alert> : null}
        <Form ref={formRef} method="post" className="space-y-4" noValidate onSubmit={oneSubmit}>
          <FieldErrors refusal={actionData}>
            <TextField
              label={t("recovery.email")}
              name="email"
              type="email"
              autoComplete="email"
              required
              autoFocus
              defaultValue={keptValue(actionData, "email")}
              error={actionData?.emailError ? t(actionData.emailError) : (actionData?.serverError?.message ?? null)}
            />
          </FieldErrors>
          <Captcha captcha={captcha} />
          <Button type="submit" className="w-full" disabled={busy || !captcha.ready}>
            {captcha.waiting ? t("captcha.wait") : busy ? t("recovery.submitting") : t("recovery.submit")}
          </Button>
        </Form>
      </div>
    </AuthCard>
  );
}
