import { type FormEvent, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Dialog } from "~/components/teams/dialog";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { SelectField, TextField } from "~/components/ui/field";
import { initialJoinChoice, joinRefusal } from "~/core/game/join";
import type { DetailedGameInfo } from "~/core/schemas/game";
import type { TeamInfo } from "~/core/schemas/team";
import { api, errorMessage, fieldError } from "~/lib/api";
import { useFocusInvalid } from "~/lib/focus-invalid";
import type { IdempotencyKeys } from "~/lib/idempotency";

/** The request fields of a join the dialog shows, where their refusals are shown. */
const JOIN_FIELDS = ["teamId", "divisionId", "inviteCode"] as const;
type JoinField = (typeof JOIN_FIELDS)[number];
/** A refusal: the fields' problems, or the server's message about the whole form, and the values it was for. */
type JoinProblems = { fields: Partial<Record<JoinField, string>>; form: string | null; sent: Record<JoinField, string> };

/**
 * Joining a game: one of my teams, a division when the game has joinable ones (the team's own, shown, when
 * it already takes part), and the invitation code when the server asks for one. `joinKeys` belongs to the
 * page: a join retried after a lost answer, even from the dialog opened again, gets the first join's answer.
 */
export function JoinDialog({
  open,
  game,
  teams,
  onClose,
  onJoined,
  joinKeys,
}: {
  open: boolean;
  game: DetailedGameInfo;
  teams: TeamInfo[];
  onClose: () => void;
  onJoined: (message: string) => void;
  joinKeys: IdempotencyKeys;
}) {
  const { t } = useTranslation();
  const joinable = game.divisions.filter((d) => d.joinable);
  // Applying again after a rejection starts from the team and the division it applied with.
  const [initial] = useState(() =>
    initialJoinChoice({
      teamIds: teams.map((team) => team.id),
      mine: { teamId: game.teamId, status: game.status, division: game.division },
      joinable: joinable.map((d) => d.id),
    }),
  );
  const [teamId, setTeamId] = useState<number | "">(initial.teamId ?? "");
  const [divisionId, setDivisionId] = useState<number | "">(initial.divisionId ?? "");
  const [code, setCode] = useState("");
  const [busy, setBusy] = useState(false);
  // What was refused, with the values it was refused for. Every field's problem the dialog can tell is shown
  // at once, each at its field (the first takes the focus), and each goes when its own field changes; the
  // server's refusal of the form as a whole goes when anything changes.
  const values: Record<JoinField, string> = { teamId: String(teamId), divisionId: String(divisionId), inviteCode: code };
  const [problems, setProblems] = useState<JoinProblems | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  useFocusInvalid(formRef, problems);
  const errorAt = (field: JoinField) => (problems && problems.sent[field] === values[field] ? (problems.fields[field] ?? null) : null);
  const formError = problems?.form && JOIN_FIELDS.every((f) => problems.sent[f] === values[f]) ? problems.form : null;
  // A team that already takes part keeps its division (rules.md §2): its members join in it, and give the
  // code the server asks of them, which the game detail names per team.
  const registered = game.teamParticipations.find((p) => p.teamId === teamId);
  const division = registered ? undefined : joinable.find((d) => d.id === divisionId);
  const teamDivision = registered ? game.divisions.find((d) => d.id === registered.division) : undefined;
  const codeRequired = registered ? registered.inviteCodeRequired : division ? division.inviteCodeRequired : game.inviteCodeRequired;
  // What the server would refuse for this team that the page knows already (rules.md §2) is said at the
  // team, and Join waits for another choice; the server still checks everything when it is pressed.
  const refusal = teamId === "" ? null : joinRefusal({ teamId, participation: registered, myTeamId: game.teamId, memberLimit: game.limit });
  const refusalText = refusal ? t(`games.join.refused.${refusal}`, { team: game.teamName ?? "", count: game.limit }) : null;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setProblems(null);
    if (refusal) return;
    const missing: JoinProblems["fields"] = {};
    if (teamId === "") missing.teamId = t("games.join.teamRequired");
    if (!registered && joinable.length > 0 && divisionId === "") missing.divisionId = t("games.join.divisionRequired");
    if (codeRequired && !code.trim()) missing.inviteCode = t("games.join.codeRequired");
    if (Object.keys(missing).length > 0) {
      setProblems({ fields: missing, form: null, sent: values });
      return;
    }
    setBusy(true);
    try {
      const body = { teamId, divisionId: registered || divisionId === "" ? null : divisionId, inviteCode: code.trim() || null };
      const result = await joinKeys.send(body, (idempotencyKey) => api<{ title: string }>(`/api/game/${game.id}`, { method: "POST", body, idempotencyKey }));
      onJoined(result.title);
    } catch (err) {
      // A refusal of a field the dialog does not show (a division when the team's is fixed, a code an admin
      // set after the page was read) stays above the form.
      const shown = JOIN_FIELDS.filter((f) => (f === "divisionId" ? !registered && joinable.length > 0 : f === "inviteCode" ? codeRequired : true));
      const refused = fieldError(err, shown);
      setProblems(refused ? { fields: { [refused.field]: refused.message }, form: null, sent: values } : { fields: {}, form: errorMessage(err), sent: values });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open={open} title={t("games.join.title", { game: game.title })} onClose={onClose}>
      <form ref={formRef} className="space-y-4" noValidate onSubmit={(e) => void submit(e)}>
        {formError ? <Alert tone="error">{formError}</Alert> : null}
        <SelectField
          id="join-team"
          label={t("games.join.team")}
          value={teamId}
          error={errorAt("teamId") ?? refusalText}
          onChange={(e) => setTeamId(e.target.value ? Number(e.target.value) : "")}
        >
          {teams.map((team) => (
            <option key={team.id} value={team.id}>
              {team.name}
            </option>
          ))}
        </SelectField>
        {registered ? (
          <div className="space-y-1.5" data-testid="join-team-division">
            <p className="text-sm font-medium">{t("games.join.division")}</p>
            <p className="text-sm break-words">{teamDivision ? teamDivision.name : t("games.join.noDivision")}</p>
            <p className="text-xs text-zinc-600 dark:text-zinc-400">{t("games.join.teamDivisionHint")}</p>
          </div>
        ) : joinable.length > 0 ? (
          <SelectField
            label={t("games.join.division")}
            value={divisionId}
            error={errorAt("divisionId")}
            onChange={(e) => setDivisionId(e.target.value ? Number(e.target.value) : "")}
          >
            <option value="">{t("games.join.chooseDivision")}</option>
            {joinable.map((d) => (
              <option key={d.id} value={d.id}>
                {d.name}
              </option>
            ))}
          </SelectField>
        ) : null}
        {codeRequired ? (
          <TextField
            label={t("games.join.inviteCode")}
            value={code}
            error={errorAt("inviteCode")}
            onChange={(e) => setCode(e.target.value)}
            autoComplete="off"
            spellCheck={false}
            maxLength={32}
          />
        ) : null}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            {t("teams.cancel")}
          </Button>
          <Button type="submit" disabled={busy || refusal !== null} aria-describedby={refusal ? "join-team-error" : undefined}>
            {busy ? t("teams.working") : t("games.join.submit")}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
