import { useTranslation } from "react-i18next";
import { selectClass } from "~/components/ui/select";

/** The monitor pages' team filter: every team that joined the game, or all (null). */
export function TeamFilter({ teams, value, onChange }: { teams: { id: number; name: string }[]; value: number | null; onChange: (teamId: number | null) => void }) {
  const { t } = useTranslation();
  return (
    <select aria-label={t("monitor.team")} className={`${selectClass} max-w-64`} value={value ?? ""} onChange={(e) => onChange(e.target.value ? Number(e.target.value) : null)}>
      <option value="">{t("monitor.allTeams")}</option>
      {teams.map((team) => (
        <option key={team.id} value={team.id}>
          {team.name}
        </option>
      ))}
    </select>
  );
}
