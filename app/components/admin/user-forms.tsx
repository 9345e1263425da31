import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { FieldErrors, TextAreaField, TextField } from "~/components/ui/field";
import { selectClass } from "~/components/ui/select";
import { ROLES } from "~/core/enums";
import { USER_NAME_MAX } from "~/core/schemas/account";
import { userEditChanges } from "~/core/ui/dialog-edits";
import { api, errorMessage, fieldError } from "~/lib/api";
import { useFocusInvalid } from "~/lib/focus-invalid";
import { type AdminUserInfo, type BatchUserResult, parseBatchLines } from "./user-types";

/** The dialog's fields a server refusal can be shown at (api.md's names, as `X-Error-Field` gives them). */
const USER_EDIT_FIELDS = ["userName", "email", "realName", "stdNumber", "phone", "bio"] as const;
type UserEditField = (typeof USER_EDIT_FIELDS)[number];

/**
 * The edit dialog's form: profile fields, role and activation (PUT /api/admin/users/{id}). It sends only the
 * fields changed against the user as the dialog opened: a ban or promotion made meanwhile elsewhere stays
 * unless this dialog changed the role itself, and then only over the role it opened with (`expectedRole`): a
 * refusal goes to `onRefused`, which takes it (true) or leaves it to the form. A save of the user unchanged is
 * not sent. A refusal about one field stands at that field (until it is changed); others above the form.
 */
export function UserEditForm({
  user,
  selfId,
  onDone,
  onCancel,
  onRefused,
}: {
  user: AdminUserInfo;
  selfId: string;
  onDone: () => void;
  onCancel: () => void;
  onRefused?: (error: unknown) => boolean;
}) {
  const { t } = useTranslation();
  // The values the fields were drawn with: a newer `user` handed in while the dialog is open is not what they show.
  const [opened] = useState(user);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // A new object per refusal: the field's error shows again at each (app/components/ui/field.tsx, FieldErrors).
  const [fieldErr, setFieldErr] = useState<{ field: UserEditField; message: string } | null>(null);
  const [noChange, setNoChange] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  useFocusInvalid(formRef, fieldErr);
  const errAt = (field: UserEditField) => (fieldErr?.field === field ? fieldErr.message : null);
  const isSelf = opened.id === selfId;

  async function submit(form: FormData) {
    const text = (name: string) => String(form.get(name) ?? "");
    const body = userEditChanges(
      opened,
      {
        userName: text("userName"),
        email: text("email"),
        realName: text("realName"),
        stdNumber: text("stdNumber"),
        phone: text("phone"),
        bio: text("bio"),
        role: text("role"),
        emailConfirmed: form.get("emailConfirmed") === "on",
      },
      isSelf,
    );
    setError(null);
    setFieldErr(null);
    const unchanged = Object.keys(body).length === 0;
    setNoChange(unchanged);
    if (unchanged) return;
    setBusy(true);
    try {
      await api(`/api/admin/users/${opened.id}`, { method: "PUT", body });
      onDone();
    } catch (err) {
      if (!onRefused?.(err)) {
        const field = fieldError(err, USER_EDIT_FIELDS);
        if (field) setFieldErr(field);
        else setError(errorMessage(err));
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      ref={formRef}
      className="space-y-4"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit(new FormData(event.currentTarget));
      }}
    >
      {noChange ? <Alert tone="info">{t("common.noChange")}</Alert> : null}
      {error ? <Alert tone="error">{error}</Alert> : null}
      <FieldErrors refusal={fieldErr}>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField label={t("adminUsers.userName")} name="userName" required maxLength={USER_NAME_MAX} defaultValue={opened.userName} error={errAt("userName")} />
          <TextField label={t("adminUsers.email")} name="email" type="email" required maxLength={254} defaultValue={opened.email} error={errAt("email")} />
          <TextField label={t("adminUsers.realName")} name="realName" maxLength={128} defaultValue={opened.realName} error={errAt("realName")} />
          <TextField label={t("adminUsers.stdNumber")} name="stdNumber" maxLength={64} defaultValue={opened.stdNumber} error={errAt("stdNumber")} />
          <TextField label={t("adminUsers.phone")} name="phone" type="tel" maxLength={32} defaultValue={opened.phone} error={errAt("phone")} />
          <div className="space-y-1.5">
            <label htmlFor="admin-user-role" className="text-sm font-medium text-zinc-800 dark:text-zinc-200">
              {t("adminUsers.role")}
            </label>
            <select id="admin-user-role" name="role" defaultValue={opened.role} disabled={isSelf} className={`${selectClass} block w-full py-2`}>
              {ROLES.map((role) => (
                <option key={role} value={role}>
                  {t(`role.${role}`)}
                </option>
              ))}
            </select>
            {isSelf ? <p className="text-xs text-zinc-600 dark:text-zinc-400">{t("adminUsers.ownRole")}</p> : null}
          </div>
        </div>
        <TextAreaField label={t("adminUsers.bio")} name="bio" maxLength={128} rows={2} defaultValue={opened.bio} error={errAt("bio")} />
      </FieldErrors>
      <div className="space-y-1">
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" name="emailConfirmed" defaultChecked={opened.emailConfirmed} disabled={isSelf} className="size-4 accent-primary-600" />
          {t("adminUsers.activeToggle")}
        </label>
        {isSelf ? <p className="text-xs text-zinc-600 dark:text-zinc-400">{t("adminUsers.ownActive")}</p> : null}
      </div>
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={onCancel} disabled={busy}>
          {t("adminUsers.cancel")}
        </Button>
        <Button type="submit" disabled={busy}>
          {busy ? t("common.saving") : t("adminUsers.save")}
        </Button>
      </div>
    </form>
  );
}

/**
 * Rows sent per request. Each row hashes a password (≈ 0.1–0.2 s of the server's CPU): 50 rows keep a
 * request to seconds, well inside a Worker's CPU limit per request, and show progress between requests.
 * Rows are applied and reported one by one, so a failure part-way leaves the earlier rows done and listed.
 */
const BATCH_CHUNK = 50;

/** Batch creation from pasted lines, with each row's outcome. */
export function BatchCreateForm({ onCreated, onClose, onBusyChange }: { onCreated: () => void; onClose: () => void; onBusyChange?: (busy: boolean) => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState("");
  const [busy, setBusyState] = useState(false);
  // The dialog must not be dismissed while rows are sent: its table of results would be lost.
  const setBusy = (value: boolean) => {
    setBusyState(value);
    onBusyChange?.(value);
  };
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [results, setResults] = useState<BatchUserResult[] | null>(null);

  async function submit() {
    const { rows, badQuoteLine } = parseBatchLines(text);
    setError(null);
    setResults(null);
    if (badQuoteLine !== null) {
      setError(t("adminUsers.batchQuote", { line: badQuoteLine }));
      return;
    }
    if (rows.length === 0) {
      setError(t("adminUsers.batchEmpty"));
      return;
    }
    setBusy(true);
    const done: BatchUserResult[] = [];
    try {
      for (let i = 0; i < rows.length; i += BATCH_CHUNK) {
        setProgress({ done: i, total: rows.length });
        done.push(...(await api<BatchUserResult[]>("/api/admin/users", { method: "POST", body: rows.slice(i, i + BATCH_CHUNK) })));
        setResults([...done]);
      }
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
      setProgress(null);
      if (done.length > 0) onCreated();
    }
  }

  const outcome = (result: string) =>
    result === "created" ? t("adminUsers.batchCreated") : result === "updated" ? t("adminUsers.batchUpdated") : result;

  return (
    <div className="space-y-4">
      <TextAreaField
        label={t("adminUsers.batchLabel")}
        description={t("adminUsers.batchHint")}
        name="batch"
        rows={8}
        value={text}
        onChange={(event) => setText(event.currentTarget.value)}
        placeholder={t("adminUsers.batchPlaceholder")}
        className="font-mono"
      />
      {error ? <Alert tone="error">{error}</Alert> : null}
      {results ? (
        <div className="max-h-64 overflow-auto rounded-md border border-zinc-200 dark:border-zinc-800">
          <table className="w-full text-left text-sm" aria-label={t("adminUsers.batchResults")}>
            <thead className="bg-zinc-50 text-xs uppercase tracking-wide text-zinc-600 dark:bg-zinc-900 dark:text-zinc-400">
              <tr>
                <th scope="col" className="px-3 py-2">{t("adminUsers.userName")}</th>
                <th scope="col" className="px-3 py-2">{t("adminUsers.batchResult")}</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-200 dark:divide-zinc-800">
              {results.map((row, i) => {
                const ok = row.result === "created" || row.result === "updated";
                return (
                  <tr key={`${i}-${row.userName}`} data-testid="batch-result">
                    <td className="px-3 py-2 font-medium wrap-anywhere">{row.userName || "—"}</td>
                    <td className={`px-3 py-2 ${ok ? "text-emerald-700 dark:text-emerald-400" : "text-red-700 dark:text-red-400"}`}>{outcome(row.result)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      ) : null}
      <div className="flex justify-end gap-2">
        <Button variant="secondary" onClick={onClose} disabled={busy}>
          {t("adminUsers.close")}
        </Button>
        <Button onClick={() => void submit()} disabled={busy}>
          {busy ? (progress && progress.total > BATCH_CHUNK ? t("adminUsers.workingProgress", progress) : t("adminUsers.working")) : t("adminUsers.batchSubmit")}
        </Button>
      </div>
    </div>
  );
}
