import { env } from "cloudflare:workers";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { redirect, useRevalidator } from "react-router";
import { requireUser } from "~/.server/auth/guard";
import { Dialog } from "~/components/teams/dialog";
import { LoadingStatus } from "~/components/teams/loading";
import { TeamCard } from "~/components/teams/team-card";
import { TeamForm } from "~/components/teams/team-form";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { FieldErrors, TextField } from "~/components/ui/field";
import type { MyTeamInfo } from "~/core/schemas/team";
import { arrayOf, recordWith } from "~/core/ui/list-shape";
import { loginPath } from "~/lib/account";
import { api, errorMessage, fieldError, isApiError } from "~/lib/api";
import { useErrorFor } from "~/lib/error-for";
import { useFocusInvalid } from "~/lib/focus-invalid";
import { useIdempotencyKey } from "~/lib/idempotency";
import { loadCached, useCachedList } from "~/lib/list-cache";
import { pageTitle } from "~/lib/meta";
import { getInstance } from "~/middleware/i18next";
import type { Route } from "./+types/teams";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireUser(request, env, "User");
  return { pageTitle: getInstance(context).t("teams.title"), userId: user.id };
}

const teamsKey = (userId: number | string) => `teams:${userId}`;
/** What the page reads of the list: anything else is neither cached nor shown. */
const TEAMS_SHAPE = arrayOf(recordWith<MyTeamInfo>({ id: "number", name: "string", locked: "boolean", members: "array" }));

function fetchTeams(signal: AbortSignal | undefined, url: string) {
  return api<MyTeamInfo[]>("/api/team", { signal }).catch((error: unknown) => {
    if (isApiError(error) && error.status === 401) {
      throw redirect(loginPath(new URL(url)));
    }
    throw error;
  });
}

/**
 * The teams are read from the API in the browser, so every change shows after a revalidation; on reload the
 * list paints from the browser cache (per user) and refreshes in the background (rules.md §15).
 */
export async function clientLoader({ request, serverLoader }: Route.ClientLoaderArgs) {
  const server = await serverLoader();
  const teams = await loadCached(teamsKey(server.userId), () => fetchTeams(request.signal, request.url), TEAMS_SHAPE);
  return { ...server, teams };
}
clientLoader.hydrate = true as const;

// No HydrateFallback: the page's title is in the server's HTML (DECISIONS.md, "Server-side titles").
export function meta({ matches, loaderData }: Route.MetaArgs) {
  return pageTitle(matches, loaderData?.pageTitle);
}

/**
 * Join by invite code. `teamsKey` names the user's teams: an error is shown only while they are the
 * teams it was made for (creating or leaving a team elsewhere on the page clears it).
 */
function JoinForm({ onJoined, teamsKey }: { onJoined: () => void; teamsKey: string }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  // A refusal of the code is shown at the field, which takes the focus; any other above the form.
  const [error, setError] = useErrorFor<{ message: string; atCode: boolean }>(teamsKey);
  const [joined, setJoined] = useState(false);
  const joinKeys = useIdempotencyKey();
  const formRef = useRef<HTMLFormElement>(null);
  useFocusInvalid(formRef, error);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const code = String(new FormData(form).get("code") ?? "").trim();
    setJoined(false);
    if (!code) {
      setError({ message: t("teams.codeRequired"), atCode: true });
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await joinKeys.send(code, (idempotencyKey) => api("/api/team/accept", { method: "POST", body: code, idempotencyKey }));
      form.reset();
      setJoined(true);
      onJoined();
    } catch (err) {
      const refused = fieldError(err, ["inviteCode"]);
      setError({ message: refused ? refused.message : errorMessage(err), atCode: refused !== null });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form ref={formRef} className="space-y-4" noValidate onSubmit={(event) => void submit(event)}>
      {error && !error.atCode ? <Alert tone="error">{error.message}</Alert> : null}
      {joined ? <Alert tone="success">{t("teams.joined")}</Alert> : null}
      <FieldErrors refusal={error}>
        <TextField
          label={t("teams.inviteCode")}
          name="code"
          error={error?.atCode ? error.message : null}
          autoComplete="off"
          spellCheck={false}
          placeholder={t("teams.codePlaceholder")}
          description={t("teams.joinHint")}
        />
      </FieldErrors>
      <div className="flex justify-end">
        <Button type="submit" disabled={busy}>
          {busy ? t("teams.working") : t("teams.join")}
        </Button>
      </div>
    </form>
  );
}

export default function TeamsPage({ loaderData }: Route.ComponentProps) {
  // Server-rendered data carries no API data; the browser loader fills it in.
  if (!("teams" in loaderData)) return <LoadingStatus />;
  return <TeamsPageView loaderData={loaderData} />;
}

function TeamsPageView({ loaderData }: { loaderData: Awaited<ReturnType<typeof clientLoader>> }) {
  const { t } = useTranslation();
  const { revalidate } = useRevalidator();
  const { userId } = loaderData;
  const { data: teams } = useCachedList(teamsKey(userId), (signal) => api<MyTeamInfo[]>("/api/team", { signal }), {
    initial: loaderData.teams.data,
    stale: loaderData.teams.fromCache,
    shape: TEAMS_SHAPE,
  });
  const [creating, setCreating] = useState(false);
  // Kept by the page, not the dialog: a team retried after a lost answer is created once (the retry gets it back).
  const createKeys = useIdempotencyKey();
  const focusTeam = useRef<number | null>(null);
  useEffect(() => {
    if (focusTeam.current === null) return;
    const heading = document.querySelector<HTMLElement>(`[data-testid="team-${focusTeam.current}"] h2`);
    if (!heading) return;
    focusTeam.current = null;
    heading.focus();
  }, [teams]);
  const ownsTeam = teams.some((team) => team.members.some((m) => m.captain && m.id === userId));
  const refresh = () => void revalidate();
  // A team left or disbanded takes its card (and the focused dialog's opener) away: once the list no longer
  // has it, the focus goes to the page's heading and a status says what was done.
  const [said, setSaid] = useState("");
  const goneTeam = useRef<number | null>(null);
  useEffect(() => {
    if (goneTeam.current === null || teams.some((team) => team.id === goneTeam.current)) return;
    goneTeam.current = null;
    document.getElementById("teams-heading")?.focus();
  }, [teams]);

  return (
    <div className="mx-auto max-w-4xl space-y-8">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 id="teams-heading" tabIndex={-1} className="text-2xl font-semibold tracking-tight focus:outline-none">
            {t("teams.title")}
          </h1>
          <p role="status" className="sr-only" data-testid="teams-said">
            {said}
          </p>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("teams.subtitle")}</p>
        </div>
        {!ownsTeam ? <Button onClick={() => setCreating(true)}>{t("teams.create")}</Button> : null}
      </div>

      {teams.length === 0 ? (
        <Card aria-labelledby="teams-empty-heading" className="text-center">
          <h2 id="teams-empty-heading" className="text-lg font-semibold">
            {t("teams.emptyTitle")}
          </h2>
          <p className="mx-auto mt-2 max-w-xl text-sm text-zinc-600 dark:text-zinc-400">{t("teams.emptyText")}</p>
        </Card>
      ) : (
        <div className="space-y-6">
          {teams.map((team) => (
            <TeamCard
              key={team.id}
              team={team}
              userId={userId}
              onChanged={refresh}
              onGone={(text) => {
                goneTeam.current = team.id;
                setSaid(text);
              }}
            />
          ))}
        </div>
      )}

      <Card aria-labelledby="teams-join-heading">
        <h2 id="teams-join-heading" className="mb-4 text-lg font-semibold">
          {t("teams.joinHeading")}
        </h2>
        <JoinForm onJoined={refresh} teamsKey={teams.map((team) => team.id).join(",")} />
      </Card>

      <Dialog open={creating} title={t("teams.createTitle")} onClose={() => setCreating(false)}>
        <p className="mb-4 text-sm text-zinc-600 dark:text-zinc-400">{t("teams.createHint")}</p>
        <TeamForm
          submitLabel={t("teams.create")}
          onCancel={() => setCreating(false)}
          onSubmit={async (values) => {
            const created = await createKeys.send(values, (idempotencyKey) => api<{ id: number }>("/api/team", { method: "POST", body: values, idempotencyKey }));
            setCreating(false);
            // The dialog's opener ("Create team") is gone with a team to captain: the focus goes to the
            // new team once it is listed.
            focusTeam.current = created.id;
            refresh();
          }}
        />
      </Dialog>
    </div>
  );
}
