import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { Dialog } from "~/components/teams/dialog";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { TextField } from "~/components/ui/field";
import type { DetailedGameInfo } from "~/core/schemas/game";
import type { TeamInfo } from "~/core/schemas/team";
import { api, errorMessage } from "~/lib/api";
import { useErrorFor } from "~/lib/error-for";

const selectClass =
  "block w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm text-zinc-900 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100";

/** Joining a game: one of my teams, a division when the game has joinable ones, and the invitation code. */
export function JoinDialog({
  open,
  game,
  teams,
  onClose,
  onJoined,
}: {
  open: boolean;
  game: DetailedGameInfo;
  teams: TeamInfo[];
  onClose: () => void;
  onJoined: (message: string) => void;
}) {
  const { t } = useTranslation();
  const joinable = game.divisions.filter((d) => d.joinable);
  const [teamId, setTeamId] = useState<number | "">(teams[0]?.id ?? "");
  const [divisionId, setDivisionId] = useState<number | "">(joinable.length === 1 ? joinable[0]!.id : "");
  const [code, setCode] = useState("");
  const [busy, setBusy] = useState(false);
  // A refusal speaks of what was sent: changing a choice or the code clears it.
  const [error, setError] = useErrorFor(`${teamId}|${divisionId}|${code}`);
  const division = joinable.find((d) => d.id === divisionId);
  const codeRequired = division ? division.inviteCodeRequired : game.inviteCodeRequired;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    if (teamId === "") {
      setError(t("games.join.teamRequired"));
      return;
    }
    if (joinable.length > 0 && divisionId === "") {
      setError(t("games.join.divisionRequired"));
      return;
    }
    if (codeRequired && !code.trim()) {
      setError(t("games.join.codeRequired"));
      return;
    }
    setBusy(true);
    try {
      const result = await api<{ title: string }>(`/api/game/${game.id}`, {
        method: "POST",
        body: { teamId, divisionId: divisionId === "" ? null : divisionId, inviteCode: code.trim() || null },
      });
      onJoined(result.title);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open={open} title={t("games.join.title", { game: game.title })} onClose={onClose}>
      <form className="space-y-4" noValidate onSubmit={(e) => void submit(e)}>
        {error ? <Alert tone="error">{error}</Alert> : null}
        <div className="space-y-1.5">
          <label htmlFor="join-team" className="text-sm font-medium">
            {t("games.join.team")}
          </label>
          <select id="join-team" className={selectClass} value={teamId} onChange={(e) => setTeamId(e.target.value ? Number(e.target.value) : "")}>
            {teams.map((team) => (
              <option key={team.id} value={team.id}>
                {team.name}
              </option>
            ))}
          </select>
        </div>
        {joinable.length > 0 ? (
          <div className="space-y-1.5">
            <label htmlFor="join-division" className="text-sm font-medium">
              {t("games.join.division")}
            </label>
            <select
              id="join-division"
              className={selectClass}
              value={divisionId}
              onChange={(e) => setDivisionId(e.target.value ? Number(e.target.value) : "")}
            >
              <option value="">{t("games.join.chooseDivision")}</option>
              {joinable.map((d) => (
                <option key={d.id} value={d.id}>
                  {d.name}
                </option>
              ))}
            </select>
          </div>
        ) : null}
        {codeRequired ? (
          <TextField
            label={t("games.join.inviteCode")}
            value={code}
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
          <Button type="submit" disabled={busy}>
            {busy ? t("teams.working") : t("games.join.submit")}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
