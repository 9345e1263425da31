import { env } from "cloudflare:workers";
import i18next from "i18next";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Form, redirect, useNavigation, useRevalidator } from "react-router";
import { getCurrentUser } from "~/.server/auth/session";
import { createDb } from "~/.server/db/client";
import { smtpConfigFromEnv } from "~/.server/mail/config";
import { getPlatformConfig } from "~/.server/services/config";
import { NewPasswordFields } from "~/components/password-fields";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { FieldErrors, TextAreaField, TextField } from "~/components/ui/field";
import { ERROR_FIELD_HEADER } from "~/core/errors";
import { USER_NAME_MAX, USER_NAME_MIN } from "~/core/schemas/account";
import { initialOf } from "~/core/text-length";
import { changedFromOriginals, originalFieldName } from "~/core/ui/changed-fields";
import { computeNewPasswordProblem, type NewPasswordProblem } from "~/core/ui/new-password";
import { sameValues } from "~/core/ui/same-values";
import { computeUserNameProblem, type UserNameProblem } from "~/core/ui/user-name";
import { formText, loginPath, type Profile } from "~/lib/account";
import { ApiError, api, errorMessage, fieldError, isApiError } from "~/lib/api";
import { useFocusInvalid } from "~/lib/focus-invalid";
import { pageTitle } from "~/lib/meta";
import { keepAfterUnchanged, unchanged } from "~/lib/revalidate";
import { getInstance } from "~/middleware/i18next";
import { avatarLabels, ImageUpload } from "~/components/ui/image-upload";
import type { Route } from "./+types/profile";

function loginRedirect(url: URL) {
  return redirect(loginPath(url));
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await getCurrentUser(request, env);
  if (!user) throw loginRedirect(new URL(request.url));
  // A change of address is mailed only with confirmation on and mail set up; otherwise the page says at
  // once that an administrator changes it, instead of after a form that cannot work.
  const { emailConfirmationRequired } = (await getPlatformConfig(createDb(env.DB))).accountPolicy;
  return { pageTitle: getInstance(context).t("profile.title"), emailByAdmin: !emailConfirmationRequired || smtpConfigFromEnv(env) === null };
}

/** The profile is read from the API in the browser, once per load (rules.md §15). */
export async function clientLoader({ request, serverLoader }: Route.ClientLoaderArgs) {
  const [server, profile] = await Promise.all([
    serverLoader(),
    api<Profile>("/api/account/profile", { signal: request.signal }).catch((error: unknown) => {
      if (isApiError(error) && error.status === 401) throw loginRedirect(new URL(request.url));
      throw error;
    }),
  ]);
  return { ...server, profile };
}
clientLoader.hydrate = true as const;

// No HydrateFallback: the page's title is in the server's HTML (DECISIONS.md, "Server-side titles").
export function meta({ matches, loaderData }: Route.MetaArgs) {
  return pageTitle(matches, loaderData?.pageTitle);
}

/** A refused or unsent action reads nothing again (app/lib/revalidate.ts): offline, the form and its input stay. */
export const shouldRevalidate = keepAfterUnchanged;

function ProfileLoading() {
  const { t } = useTranslation();
  return (
    <p role="status" className="py-12 text-center text-zinc-600 dark:text-zinc-400">
      {t("common.loading")}
    </p>
  );
}

/** The profile form's fields a server refusal can be shown at. */
const PROFILE_FIELDS = ["userName", "realName", "stdNumber", "phone", "bio"] as const;
type ProfileField = (typeof PROFILE_FIELDS)[number];

/** The body of PUT account/update from the profile form's values (or the stored profile's). */
function updateBody(values: Record<ProfileField, string>) {
  return {
    userName: values.userName.trim(),
    realName: values.realName.trim(),
    stdNumber: values.stdNumber.trim(),
    phone: values.phone.trim(),
    bio: values.bio.trim(),
  };
}

const formValues = (form: FormData) =>
  Object.fromEntries(PROFILE_FIELDS.map((field) => [field, formText(form, field)])) as Record<ProfileField, string>;

/** The values the form was drawn with, as its hidden `original.<field>` inputs carry them back (trimmed, as sent); a field without one is absent. */
function formOriginals(form: FormData): Partial<Record<ProfileField, string>> {
  const out: Partial<Record<ProfileField, string>> = {};
  for (const field of PROFILE_FIELDS) {
    const value = form.get(originalFieldName(field));
    if (typeof value === "string") out[field] = value.trim();
  }
  return out;
}

/** The change-email form's field a server refusal can be shown at (PUT account/changeemail's name for it). */
const EMAIL_FIELDS = ["newMail"] as const;
/** The change-password form's fields a server refusal can be shown at: the current password and the new one. */
const PASSWORD_FIELDS = ["old", "new"] as const;

type EmailChange = {
  sent: boolean;
  byAdmin?: boolean;
  error: string | null;
  /** The server's refusal of the new address (invalid, taken, outside the allowed domains), shown at it. */
  serverError?: { field: (typeof EMAIL_FIELDS)[number]; message: string } | null;
};

type ActionResult =
  | {
      intent: "update";
      saved: boolean;
      error: string | null;
      userNameError?: UserNameProblem;
      /** The server's refusal of one field (a taken name, a malformed phone number), shown at it. */
      serverError?: { field: ProfileField; message: string } | null;
    }
  | ({ intent: "email"; newMailError?: "profile.newEmailRequired" } & EmailChange)
  | {
      intent: "password";
      error: string | null;
      oldError?: "password.empty";
      problem?: NewPasswordProblem;
      /** The server's refusal of the current password (a wrong one) or of the new one, shown at it. */
      serverError?: { field: (typeof PASSWORD_FIELDS)[number]; message: string } | null;
    };

export async function clientAction({ request }: Route.ClientActionArgs): Promise<ActionResult | Response> {
  const form = await request.formData();

  if (formText(form, "intent") === "email") {
    const newMail = formText(form, "newMail").trim();
    if (!newMail) return unchanged<ActionResult>({ intent: "email", sent: false, error: null, newMailError: "profile.newEmailRequired" });
    const result = await requestEmailChange(newMail);
    return result.sent ? { intent: "email", ...result } : unchanged<ActionResult>({ intent: "email", ...result });
  }

  if (formText(form, "intent") === "password") {
    const old = formText(form, "old");
    const next = formText(form, "new");
    const problem = computeNewPasswordProblem(next, formText(form, "newRetype")) ?? undefined;
    const oldError = old ? undefined : ("password.empty" as const);
    if (problem || oldError) return unchanged<ActionResult>({ intent: "password", error: null, problem, oldError });
    try {
      await api("/api/account/changepassword", { method: "PUT", body: { old, new: next } });
    } catch (error) {
      const serverError = fieldError(error, PASSWORD_FIELDS);
      return unchanged<ActionResult>({ intent: "password", error: serverError ? null : errorMessage(error), serverError });
    }
    // The server revoked every session of this user: sign in again with the new password.
    return redirect("/account/login?reason=password-changed");
  }

  const values = updateBody(formValues(form));
  // An empty name is asked for ("User name is required", as the API says), not told the length rule.
  const userNameError = computeUserNameProblem(values.userName);
  if (userNameError) return unchanged<ActionResult>({ intent: "update", saved: false, error: null, userNameError });
  // Only the fields changed against the values the form was drawn with: a tab left open does not write back
  // the real name, student number or phone an admin corrected meanwhile (DECISIONS.md, forty-fourth session).
  const body = changedFromOriginals(values, formOriginals(form));
  if (Object.keys(body).length === 0) return { intent: "update", saved: true, error: null };
  try {
    await api("/api/account/update", { method: "PUT", body });
  } catch (error) {
    const serverError = fieldError(error, PROFILE_FIELDS);
    return unchanged<ActionResult>({ intent: "update", saved: false, error: serverError ? null : errorMessage(error), serverError });
  }
  return { intent: "update", saved: true, error: null };
}

/**
 * PUT changeemail. Read by hand rather than through `api` because a refusal carries `data: false` when
 * email confirmation is off (only an admin can change the address then).
 */
async function requestEmailChange(newMail: string): Promise<EmailChange> {
  const headers: Record<string, string> = { Accept: "application/json", "Content-Type": "application/json" };
  const language = i18next.resolvedLanguage ?? i18next.language;
  if (language) headers["Accept-Language"] = language;
  type ChangeEmailBody = { title?: unknown; data?: unknown } | null;
  let body: ChangeEmailBody = null;
  let ok = false;
  let status = 0;
  let field: string | null = null;
  try {
    const response = await fetch("/api/account/changeemail", {
      method: "PUT",
      headers,
      body: JSON.stringify({ newMail }),
      credentials: "same-origin",
    });
    ok = response.ok;
    status = response.status;
    field = response.headers.get(ERROR_FIELD_HEADER);
    body = (await response.json().catch(() => null)) as ChangeEmailBody;
  } catch {
    return { sent: false, error: i18next.t("common:error.network") };
  }
  if (ok && body?.data === true) return { sent: true, error: null };
  if (body?.data === false) return { sent: false, byAdmin: true, error: null };
  if (typeof body?.title !== "string") return { sent: false, error: i18next.t("common:error.unknown") };
  const serverError = fieldError(new ApiError(body.title, status, field), EMAIL_FIELDS);
  return { sent: false, error: serverError ? null : body.title, serverError };
}

/** Chooses and uploads the user's avatar (PUT account/avatar) with a progress bar. */
function ProfileAvatarUpload() {
  const { t } = useTranslation();
  const revalidator = useRevalidator();
  return (
    <ImageUpload
      url="/api/account/avatar"
      labels={avatarLabels(t, "profile")}
      buttonClassName="cursor-pointer px-3 py-1.5 text-sm"
      // The profile and the header's avatar are read again.
      onUploaded={() => revalidator.revalidate()}
    />
  );
}

export default function ProfilePage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  // The server's data (no profile yet) renders first, on the server and at hydration: the loading state
  // until the client loader is done.
  const profile: Profile | undefined = "profile" in loaderData ? loaderData.profile : undefined;
  const submitting = navigation.state !== "idle" ? navigation.formData?.get("intent") : null;
  // A Save of the profile as loaded sends nothing and says so, until the next answer of any form here.
  const [noChange, setNoChange] = useState<{ after: typeof actionData } | null>(null);
  const unchanged = noChange !== null && noChange.after === actionData;
  const update = actionData?.intent === "update" && !unchanged ? actionData : null;
  const updateForm = useRef<HTMLFormElement>(null);
  useFocusInvalid(updateForm, update?.userNameError || update?.serverError ? update : null);
  const refusedAt = (field: ProfileField) => (update?.serverError?.field === field ? update.serverError.message : null);
  const password = actionData?.intent === "password" ? actionData : null;
  const emailChange = actionData?.intent === "email" ? actionData : null;
  const emailForm = useRef<HTMLFormElement>(null);
  useFocusInvalid(emailForm, emailChange?.newMailError || emailChange?.serverError ? emailChange : null);
  const passwordForm = useRef<HTMLFormElement>(null);
  useFocusInvalid(passwordForm, password?.oldError || password?.problem || password?.serverError ? password : null);
  const passwordRefusedAt = (field: (typeof PASSWORD_FIELDS)[number]) => (password?.serverError?.field === field ? password.serverError.message : null);

  if (!profile) return <ProfileLoading />;

  return (
    <div className="mx-auto max-w-3xl space-y-8">
      <div className="flex items-center gap-4">
        {profile.avatar ? (
          <img src={profile.avatar} alt="" className="size-16 rounded-full object-cover" />
        ) : (
          <span
            aria-hidden="true"
            className="grid size-16 place-items-center rounded-full bg-primary-100 text-2xl font-semibold text-primary-800 dark:bg-primary-900 dark:text-primary-100"
          >
            {initialOf(profile.userName)}
          </span>
        )}
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">{t("profile.title")}</h1>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            {profile.email} · {t(`role.${profile.role}`)}
          </p>
        </div>
        <div className="ms-auto">
          <ProfileAvatarUpload />
        </div>
      </div>

      <Card aria-labelledby="profile-info-heading">
        <h2 id="profile-info-heading" className="mb-4 text-lg font-semibold">
          {t("profile.infoHeading")}
        </h2>
        <Form
          ref={updateForm}
          method="post"
          className="space-y-4"
          noValidate
          // Made anew when a saved field changes (a save, another tab's) — not when the avatar does: an upload
          // re-reads the profile, and the fields typed but not saved yet stay.
          key={JSON.stringify(PROFILE_FIELDS.map((field) => profile[field]))}
          onSubmit={(event) => {
            const same = sameValues(updateBody(formValues(new FormData(event.currentTarget))), updateBody(profile));
            setNoChange(same ? { after: actionData } : null);
            if (same) event.preventDefault();
          }}
        >
          <input type="hidden" name="intent" value="update" />
          {PROFILE_FIELDS.map((field) => (
            <input key={field} type="hidden" name={originalFieldName(field)} value={profile[field]} />
          ))}
          {unchanged ? <Alert tone="info">{t("common.noChange")}</Alert> : null}
          {update?.saved ? <Alert tone="success">{t("profile.saved")}</Alert> : null}
          {update?.error ? <Alert tone="error">{update.error}</Alert> : null}
          <FieldErrors refusal={update}>
            <div className="grid gap-4 sm:grid-cols-2">
              <TextField
                label={t("profile.userName")}
                name="userName"
                autoComplete="username"
                required
                maxLength={USER_NAME_MAX}
                defaultValue={profile.userName}
                error={update?.userNameError ? t(update.userNameError, { min: USER_NAME_MIN, max: USER_NAME_MAX }) : refusedAt("userName")}
              />
              <TextField label={t("profile.email")} name="email" type="email" value={profile.email} readOnly disabled />
              <TextField
                label={t("profile.realName")}
                name="realName"
                autoComplete="name"
                maxLength={128}
                defaultValue={profile.realName}
                error={refusedAt("realName")}
              />
              <TextField label={t("profile.stdNumber")} name="stdNumber" maxLength={64} defaultValue={profile.stdNumber} error={refusedAt("stdNumber")} />
              <TextField
                label={t("profile.phone")}
                name="phone"
                type="tel"
                autoComplete="tel"
                maxLength={32}
                defaultValue={profile.phone}
                error={refusedAt("phone")}
              />
            </div>
            <TextAreaField label={t("profile.bio")} name="bio" maxLength={128} rows={3} defaultValue={profile.bio} error={refusedAt("bio")} />
          </FieldErrors>
          <div className="flex justify-end">
            <Button type="submit" disabled={submitting === "update"}>
              {submitting === "update" ? t("common.saving") : t("profile.save")}
            </Button>
          </div>
        </Form>
      </Card>

      <Card aria-labelledby="profile-email-heading">
        <h2 id="profile-email-heading" className="mb-1 text-lg font-semibold">
          {t("profile.emailHeading")}
        </h2>
        {loaderData.emailByAdmin ? (
          <Alert tone="info">{t("profile.emailByAdmin")}</Alert>
        ) : (
          <p className="mb-4 text-sm text-zinc-600 dark:text-zinc-400">{t("profile.emailNote")}</p>
        )}
        <Form ref={emailForm} method="post" className={loaderData.emailByAdmin ? "hidden" : "space-y-4"} noValidate>
          <input type="hidden" name="intent" value="email" />
          {emailChange?.sent ? <Alert tone="success">{t("profile.emailSent")}</Alert> : null}
          {emailChange?.byAdmin ? <Alert tone="info">{t("profile.emailByAdmin")}</Alert> : null}
          {emailChange?.error ? <Alert tone="error">{emailChange.error}</Alert> : null}
          <FieldErrors refusal={emailChange}>
            <TextField
              label={t("profile.newEmail")}
              name="newMail"
              type="email"
              autoComplete="email"
              required
              maxLength={254}
              error={emailChange?.newMailError ? t(emailChange.newMailError) : (emailChange?.serverError?.message ?? null)}
            />
          </FieldErrors>
          <div className="flex justify-end">
            <Button type="submit" disabled={submitting === "email"}>
              {submitting === "email" ? t("common.saving") : t("profile.changeEmail")}
            </Button>
          </div>
        </Form>
      </Card>

      <Card aria-labelledby="profile-password-heading">
        <h2 id="profile-password-heading" className="mb-1 text-lg font-semibold">
          {t("profile.passwordHeading")}
        </h2>
        <p className="mb-4 text-sm text-zinc-600 dark:text-zinc-400">{t("profile.passwordNote")}</p>
        <Form ref={passwordForm} method="post" className="space-y-4" noValidate>
          <input type="hidden" name="intent" value="password" />
          {password?.error ? <Alert tone="error">{password.error}</Alert> : null}
          <FieldErrors refusal={password}>
            <TextField
              label={t("profile.oldPassword")}
              name="old"
              type="password"
              autoComplete="current-password"
              required
              error={password?.oldError ? t(password.oldError) : passwordRefusedAt("old")}
            />
            <NewPasswordFields name="new" label={t("profile.newPassword")} problem={password?.problem} refusal={passwordRefusedAt("new")} />
          </FieldErrors>
          <div className="flex justify-end">
            <Button type="submit" disabled={submitting === "password"}>
              {submitting === "password" ? t("common.saving") : t("profile.changePassword")}
            </Button>
          </div>
        </Form>
      </Card>
    </div>
  );
}
