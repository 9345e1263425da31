import { type FormEvent, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { FieldErrors, TextAreaField, TextField } from "~/components/ui/field";
import { TEAM_BIO_MAX, TEAM_NAME_MAX } from "~/core/schemas/team";
import { codePointLength } from "~/core/text-length";
import { teamEditChanges, teamFormBody, type TeamFormValues } from "~/core/ui/dialog-edits";
import { errorMessage, fieldError } from "~/lib/api";
import { useFocusInvalid } from "~/lib/focus-invalid";

/** The form's fields a server refusal can be shown at (api.md's names, as `X-Error-Field` gives them). */
const TEAM_FIELDS = ["name", "bio"] as const;
type TeamField = (typeof TEAM_FIELDS)[number];

/**
 * Name and bio of a team, for creating and editing. Editing (`initial`: the team's stored values as the form
 * opens) sends only the fields changed against them, so a name changed meanwhile elsewhere is not sent back
 * with a new bio, and a save of them unchanged is not sent. The server's refusal of one field (`X-Error-Field`)
 * stands at that field until it is changed, as the form's own check of the name does; others above the form.
 */
export function TeamForm({
  initial,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  initial?: TeamFormValues;
  submitLabel: string;
  onSubmit: (values: Partial<TeamFormValues>) => Promise<void>;
  onCancel?: () => void;
}) {
  const { t } = useTranslation();
  // The values the fields were drawn with: a newer `initial` handed in while the form is open is not what they show.
  const [opened] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // A new object per refusal: the field's error shows again at each (app/components/ui/field.tsx, FieldErrors).
  const [fieldErr, setFieldErr] = useState<{ field: TeamField; message: string } | null>(null);
  const [noChange, setNoChange] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  useFocusInvalid(formRef, fieldErr);
  const errAt = (field: TeamField) => (fieldErr?.field === field ? fieldErr.message : null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const { name, bio } = teamFormBody({ name: String(form.get("name") ?? ""), bio: String(form.get("bio") ?? "") });
    const body = opened ? teamEditChanges(opened, { name, bio }) : { name, bio };
    const unchanged = Object.keys(body).length === 0;
    setNoChange(unchanged);
    if (unchanged) {
      setFieldErr(null);
      setError(null);
      return;
    }
    // In characters, as the server counts them: a name of 20 emoji is 40 UTF-16 units.
    if (name.length < 1 || codePointLength(name) > TEAM_NAME_MAX) {
      setFieldErr({ field: "name", message: t("teams.nameLength", { max: TEAM_NAME_MAX }) });
      return;
    }
    setFieldErr(null);
    setError(null);
    setBusy(true);
    try {
      await onSubmit(body);
    } catch (err) {
      const field = fieldError(err, TEAM_FIELDS);
      if (field) setFieldErr(field);
      else setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form ref={formRef} className="space-y-4" noValidate onSubmit={(event) => void submit(event)}>
      {noChange ? <Alert tone="info">{t("common.noChange")}</Alert> : null}
      {error ? <Alert tone="error">{error}</Alert> : null}
      <FieldErrors refusal={fieldErr}>
        <TextField
          label={t("teams.name")}
          name="name"
          required
          maxLength={TEAM_NAME_MAX}
          defaultValue={opened?.name}
          error={errAt("name")}
          autoComplete="off"
        />
        <TextAreaField label={t("teams.bio")} name="bio" maxLength={TEAM_BIO_MAX} rows={2} defaultValue={opened?.bio} error={errAt("bio")} />
      </FieldErrors>
      <div className="flex justify-end gap-2">
        {onCancel ? (
          <Button variant="secondary" onClick={onCancel} disabled={busy}>
            {t("teams.cancel")}
          </Button>
        ) : null}
        <Button type="submit" disabled={busy}>
          {busy ? t("teams.working") : submitLabel}
        </Button>
      </div>
    </form>
  );
}
