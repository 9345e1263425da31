import { env } from "cloudflare:workers";
import { useRef } from "react";
import { useTranslation } from "react-i18next";
import { Form, redirect, useNavigation, useSearchParams } from "react-router";
import { getCurrentUser } from "~/.server/auth/session";
import { createDb } from "~/.server/db/client";
import { captchaInfo, captchaSettingsFromEnv } from "~/.server/captcha/verify";
import { getPlatformConfig } from "~/.server/services/config";
import { formActionInProcess } from "~/.server/in-process-api";
import { AuthCard } from "~/components/auth-card";
import { Captcha, useCaptcha } from "~/components/captcha";
import { NewPasswordFields } from "~/components/password-fields";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { FieldErrors, TextField } from "~/components/ui/field";
import { TextLink } from "~/components/ui/text-link";
import type { RegisterStatus } from "~/core/enums";
import { USER_NAME_MAX, USER_NAME_MIN } from "~/core/schemas/account";
import { computeEmailProblem, type EmailProblem } from "~/core/ui/email";
import { computeNewPasswordProblem, type NewPasswordProblem } from "~/core/ui/new-password";
import { computeUserNameProblem, type UserNameProblem } from "~/core/ui/user-name";
import { formText, type RegisterResponse, safeRedirect } from "~/lib/account";
import { api, type ApiCall, errorMessage, fieldError } from "~/lib/api";
import { useFocusInvalid } from "~/lib/focus-invalid";
import { keptValue } from "~/lib/kept-input";
import { pageTitle } from "~/lib/meta";
import { keepAfterUnchanged, unchanged } from "~/lib/revalidate";
import { useOneSubmitAtATime } from "~/lib/one-submit";
import { getInstance } from "~/middleware/i18next";
import type { Route } from "./+types/register";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await getCurrentUser(request, env);
  if (user) throw redirect("/");
  // A closed registration is said before the form is filled in, not after.
  const { allowRegister, useCaptcha: captchaOn } = (await getPlatformConfig(createDb(env.DB))).accountPolicy;
  return { pageTitle: getInstance(context).t("register.title"), open: allowRegister, captcha: captchaInfo(captchaSettingsFromEnv(env), captchaOn) };
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
  return pageTitle(matches, loaderData?.pageTitle);
}

/** A refused or unsent action reads nothing again (app/lib/revalidate.ts): offline, the form and its input stay. */
export const shouldRevalidate = keepAfterUnchanged;

interface FieldErrors {
  userName?: UserNameProblem;
  email?: EmailProblem;
  password?: NewPasswordProblem;
}

/** The request fields a server refusal can be shown at (a taken name or email, a refused password). */
const SERVER_FIELDS = ["userName", "email", "password"] as const;

type ActionResult =
  | {
      fieldErrors: FieldErrors;
      /** The server's refusal of one field, shown at it. */
      serverError?: { field: (typeof SERVER_FIELDS)[number]; message: string } | null;
      formError: string | null;
      outcome?: undefined;
    }
  | { outcome: Exclude<RegisterStatus, "LoggedIn">; fieldErrors?: undefined; serverError?: undefined; formError?: undefined };

/** The form's submission, through `call`: the API from the browser, or in process from the server action. */
async function submit(form: FormData, call: ApiCall): Promise<ActionResult | Response> {
  const userName = formText(form, "userName").trim();
  const email = formText(form, "email").trim();
  const password = formText(form, "password");

  const fieldErrors: FieldErrors = {};
  const userNameProblem = computeUserNameProblem(userName);
  if (userNameProblem) fieldErrors.userName = userNameProblem;
  const emailProblem = computeEmailProblem(email);
  if (emailProblem) fieldErrors.email = emailProblem;
  const passwordProblem = computeNewPasswordProblem(password, formText(form, "passwordRetype"));
  if (passwordProblem) fieldErrors.password = passwordProblem;
  if (Object.keys(fieldErrors).length > 0) return unchanged({ fieldErrors, formError: null });

  let result: RegisterResponse;
  try {
    result = await call<RegisterResponse>("/api/account/register", {
      method: "POST",
      body: { userName, password, email, challenge: formText(form, "challenge") || undefined },
    });
  } catch (error) {
    const serverError = fieldError(error, SERVER_FIELDS);
    return unchanged({ fieldErrors, serverError, formError: serverError ? null : errorMessage(error) });
  }
  if (result.data === "LoggedIn") return redirect(safeRedirect(form.get("from")));
  return { outcome: result.data };
}

export async function clientAction({ request }: Route.ClientActionArgs): Promise<ActionResult | Response> {
  return submit(await request.formData(), api);
}

/** The form posted before the page's JavaScript ran; a refusal keeps the user name and email (never the passwords or captcha token). */
export const action = formActionInProcess(submit, ["userName", "email"]);

export default function Register({ actionData, loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const oneSubmit = useOneSubmitAtATime();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  const from = params.get("from") ?? "";
  // A server refusal used the captcha's token up, whether it is shown at a field or above the form.
  const captcha = useCaptcha({ action: "register", failure: actionData?.formError || actionData?.serverError ? actionData : null, info: loaderData.captcha });
  const formRef = useRef<HTMLFormElement>(null);
  useFocusInvalid(formRef, actionData?.outcome ? null : actionData);

  if (actionData?.outcome) {
    const awaitingAdmin = actionData.outcome === "AdminConfirmationRequired";
    return (
      <AuthCard title={t("register.doneTitle")}>
        <Alert tone="success" title={awaitingAdmin ? t("register.awaitingApprovalTitle") : t("register.checkEmailTitle")}>
          {awaitingAdmin ? t("register.awaitingApproval") : t("register.checkEmail")}
        </Alert>
        <p className="mt-6 text-sm">
          <TextLink to="/">{t("notFound.home")}</TextLink>
        </p>
      </AuthCard>
    );
  }

  const fieldErrors = actionData?.fieldErrors;
  const serverError = actionData?.serverError;
  const serverMessage = (field: (typeof SERVER_FIELDS)[number]) => (serverError?.field === field ? serverError.message : null);
  return (
    <AuthCard
      title={t("register.title")}
      footer={
        <>
          {t("register.haveAccount")}{" "}
          <TextLink to={from ? `/account/login?from=${encodeURIComponent(from)}` : "/account/login"}>
            {t("register.toLogin")}
          </TextLink>
        </>
      }
    >
      {loaderData.open ? null : (
        <Alert tone="info" title={t("register.closedTitle")}>
          {t("register.closed")}
        </Alert>
      )}
      <div className={loaderData.open ? "space-y-4" : "hidden"}>
        {actionData?.formError ? <Alert tone="error">{actionData.formError}</Alert> : null}
        <Form ref={formRef} method="post" className="space-y-4" noValidate onSubmit={oneSubmit}>
          <input type="hidden" name="from" value={from} />
          <FieldErrors refusal={actionData}>
            <TextField
              label={t("register.userName")}
              name="userName"
              autoComplete="username"
              required
              autoFocus
              maxLength={USER_NAME_MAX}
              defaultValue={keptValue(actionData, "userName")}
              description={t("register.userNameHint", { min: USER_NAME_MIN, max: USER_NAME_MAX })}
              error={fieldErrors?.userName ? t(fieldErrors.userName, { min: USER_NAME_MIN, max: USER_NAME_MAX }) : serverMessage("userName")}
            />
            <TextField
              label={t("register.email")}
              name="email"
              type="email"
              autoComplete="email"
              required
              defaultValue={keptValue(actionData, "email")}
              error={fieldErrors?.email ? t(fieldErrors.email) : serverMessage("email")}
            />
            <NewPasswordFields name="password" label={t("register.password")} problem={fieldErrors?.password} refusal={serverMessage("password")} />
          </FieldErrors>
          <Captcha captcha={captcha} />
          <Button type="submit" className="w-full" disabled={busy || !captcha.ready}>
            {captcha.waiting ? t("captcha.wait") : busy ? t("register.submitting") : t("register.submit")}
          </Button>
        </Form>
      </div>
    </AuthCard>
  );
}
