import { useRef } from "react";
import { useTranslation } from "react-i18next";
import { Form, useNavigation, useSearchParams } from "react-router";
import { formActionInProcess } from "~/.server/in-process-api";
import { AuthCard } from "~/components/auth-card";
import { NewPasswordFields } from "~/components/password-fields";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { FieldErrors } from "~/components/ui/field";
import { TextLink } from "~/components/ui/text-link";
import { computeNewPasswordProblem, type NewPasswordProblem } from "~/core/ui/new-password";
import { formText } from "~/lib/account";
import { api, type ApiCall, errorMessage } from "~/lib/api";
import { useFocusInvalid } from "~/lib/focus-invalid";
import { pageTitle } from "~/lib/meta";
import { keepAfterUnchanged, unchanged } from "~/lib/revalidate";
import { useOneSubmitAtATime } from "~/lib/one-submit";
import { getInstance } from "~/middleware/i18next";
import type { Route } from "./+types/reset";

export function loader({ context }: Route.LoaderArgs) {
  return { pageTitle: getInstance(context).t("reset.title") };
}

export function meta({ matches, loaderData }: Route.MetaArgs) {
  return pageTitle(matches, loaderData?.pageTitle);
}

/** A refused or unsent action reads nothing again (app/lib/revalidate.ts): offline, the form and its input stay. */
export const shouldRevalidate = keepAfterUnchanged;

type ActionResult = { done: true; error?: undefined; problem?: undefined } | { done: false; error: string | null; problem?: NewPasswordProblem };

/** The form's submission, through `call`: the API from the browser, or in process from the server action. */
async function submit(form: FormData, call: ApiCall): Promise<ActionResult> {
  const password = formText(form, "password");
  const problem = computeNewPasswordProblem(password, formText(form, "passwordRetype"));
  if (problem) return unchanged({ done: false, error: null, problem });
  try {
    await call("/api/account/passwordreset", {
      method: "POST",
      body: { password, email: formText(form, "email"), rToken: formText(form, "token") },
    });
  } catch (error) {
    return unchanged({ done: false, error: errorMessage(error) });
  }
  return { done: true };
}

export async function clientAction({ request }: Route.ClientActionArgs): Promise<ActionResult> {
  return submit(await request.formData(), api);
}

/** The form posted before the page's JavaScript ran. */
export const action = formActionInProcess(submit);

export default function Reset({ actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const oneSubmit = useOneSubmitAtATime();
  const busy = navigation.state !== "idle" && navigation.formMethod === "POST";
  // A refusal at a field moves the focus there, where its message stands (a screen reader then reads it).
  const formRef = useRef<HTMLFormElement>(null);
  useFocusInvalid(formRef, actionData?.done ? null : actionData);
  const token = params.get("token") ?? "";
  const email = params.get("email") ?? "";

  if (actionData?.done) {
    return (
      <AuthCard title={t("reset.title")}>
        <Alert tone="success" title={t("reset.doneTitle")}>
          {t("reset.done")}
        </Alert>
        <p className="mt-6 text-sm">
          <TextLink to="/account/login">{t("reset.toLogin")}</TextLink>
        </p>
      </AuthCard>
    );
  }

  if (!token || !email) {
    return (
      <AuthCard title={t("reset.title")}>
        <Alert tone="error" title={t("reset.badLinkTitle")}>
          {t("reset.badLink")}
        </Alert>
        <p className="mt-6 text-sm">
          <TextLink to="/account/recovery">{t("reset.requestAgain")}</TextLink>
        </p>
      </AuthCard>
    );
  }

  return (
    <AuthCard title={t("reset.title")} footer={<TextLink to="/account/recovery">{t("reset.requestAgain")}</TextLink>}>
      <div className="space-y-4">
        {actionData?.error ? <Alert tone="error">{actionData.error}</Alert> : null}
        <Form ref={formRef} method="post" className="space-y-4" noValidate onSubmit={oneSubmit}>
          <input type="hidden" name="token" value={token} />
          <input type="hidden" name="email" value={email} />
          <FieldErrors refusal={actionData}>
            <NewPasswordFields name="password" label={t("reset.password")} problem={actionData?.problem} />
          </FieldErrors>
          <Button type="submit" className="w-full" disabled={busy}>
            {busy ? t("reset.submitting") : t("reset.submit")}
          </Button>
        </Form>
      </div>
    </AuthCard>
  );
}
