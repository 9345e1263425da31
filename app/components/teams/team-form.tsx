import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { FieldErrors, TextAreaField, TextField } from "~/components/ui/field";
import { TEAM_BIO_MAX, TEAM_NAME_MAX } from "~/core/schemas/team";
import { codePointLength } from "~/core/text-length";
import { sameValues } from "~/core/ui/same-values";
import { errorMessage } from "~/lib/api";

export interface TeamFormValues {
  name: string;
  bio: string;
}

/** The values as the form sends them (trimmed). */
const teamBody = (values: TeamFormValues): TeamFormValues => ({ name: values.name.trim(), bio: values.bio.trim() });

/**
 * Name and bio of a team, for creating and editing (`initial`: the team's stored values, and a save of them
 * unchanged is not sent); the server's message is shown when it refuses.
 */
export function TeamForm({
  initial,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  initial?: TeamFormValues;
  submitLabel: string;
  onSubmit: (values: TeamFormValues) => Promise<void>;
  onCancel?: () => void;
}) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // A new object per refusal: the name's error shows again at each (app/components/ui/field.tsx, FieldErrors).
  const [nameError, setNameError] = useState<{ message: string } | null>(null);
  const [noChange, setNoChange] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const { name, bio } = teamBody({ name: String(form.get("name") ?? ""), bio: String(form.get("bio") ?? "") });
    const unchanged = initial !== undefined && sameValues({ name, bio }, teamBody(initial));
    setNoChange(unchanged);
    if (unchanged) {
      setNameError(null);
      setError(null);
      return;
    }
    // In characters, as the server counts them: a name of 20 emoji is 40 UTF-16 units.
    if (name.length < 1 || codePointLength(name) > TEAM_NAME_MAX) {
      setNameError({ message: t("teams.nameLength", { max: TEAM_NAME_MAX }) });
      return;
    }
    setNameError(null);
    setError(null);
    setBusy(true);
    try {
      await onSubmit({ name, bio });
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="space-y-4" noValidate onSubmit={(event) => void submit(event)}>
      {noChange ? <Alert tone="info">{t("common.noChange")}</Alert> : null}
      {error ? <Alert tone="error">{error}</Alert> : null}
      <FieldErrors refusal={nameError}>
        <TextField
          label={t("teams.name")}
          name="name"
          required
          maxLength={TEAM_NAME_MAX}
          defaultValue={initial?.name}
          error={nameError?.message}
          autoComplete="off"
        />
      </FieldErrors>
      <TextAreaField label={t("teams.bio")} name="bio" maxLength={TEAM_BIO_MAX} rows={2} defaultValue={initial?.bio} />
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
