import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { CopyButton } from "~/components/ui/copy-button";
import { Card } from "~/components/ui/card";
import type { MyTeamInfo, TeamMemberInfo } from "~/core/schemas/team";
import { api, errorMessage } from "~/lib/api";
import { useFocusAfterDialog } from "~/lib/focus-after-dialog";
import { AvatarUpload } from "./avatar-upload";
import { ConfirmDialog, Dialog } from "./dialog";
import { TeamAvatar } from "./team-avatar";
import { TeamForm } from "./team-form";

type Pending =
  | { kind: "kick" | "transfer"; member: TeamMemberInfo }
  | { kind: "leave" | "disband" | "renew" };

/** One of my teams: members with roles, and the actions my role allows. */
export function TeamCard({
  team,
  userId,
  onChanged,
  onGone,
}: {
  team: MyTeamInfo;
  userId: string;
  onChanged: () => void;
  /** The user left the team or disbanded it: this card goes, so the page takes the focus and says what was done. */
  onGone: (said: string) => void;
}) {
  const { t } = useTranslation();
  const isCaptain = team.members.some((m) => m.captain && m.id === userId);
  const [pending, setPending] = useState<Pending | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);
  const [code, setCode] = useState<string | null>(null);
  const [codeError, setCodeError] = useState<string | null>(null);
  // "Show invite code" is replaced by the code: the focus goes to the code (selected, ready to copy)
  // instead of falling to the page.
  const codeInput = useRef<HTMLInputElement>(null);
  const focusCode = useRef(false);
  useEffect(() => {
    if (code !== null && focusCode.current) {
      focusCode.current = false;
      codeInput.current?.focus();
    }
  }, [code]);

  // Removing a member or handing over captaincy takes away the button that opened the dialog: the focus
  // goes to the team's heading instead of falling to the page, and what was done is said.
  const headingId = `team-${team.id}-heading`;
  const focusHeadingAfter = useFocusAfterDialog(pending !== null, headingId);
  const [said, setSaid] = useState("");

  function ask(next: Pending) {
    setError(null);
    setPending(next);
  }

  async function showCode() {
    setCodeError(null);
    try {
      const shown = await api<string>(`/api/team/${team.id}/invite`);
      focusCode.current = true;
      setCode(shown);
    } catch (err) {
      setCodeError(errorMessage(err));
    }
  }

  async function confirm() {
    if (!pending) return;
    setBusy(true);
    setError(null);
    try {
      switch (pending.kind) {
        case "kick":
          await api(`/api/team/${team.id}/kick/${pending.member.id}`, { method: "POST" });
          break;
        case "transfer":
          await api(`/api/team/${team.id}/transfer`, { method: "PUT", body: { newCaptainId: pending.member.id } });
          break;
        case "leave":
          await api(`/api/team/${team.id}/leave`, { method: "POST" });
          break;
        case "disband":
          await api(`/api/team/${team.id}`, { method: "DELETE" });
          break;
        case "renew":
          setCode(await api<string>(`/api/team/${team.id}/invite`, { method: "PUT" }));
          break;
      }
      if (pending.kind === "kick" || pending.kind === "transfer") {
        focusHeadingAfter();
        setSaid(t(pending.kind === "kick" ? "teams.kicked" : "teams.transferred", { user: pending.member.userName }));
      }
      if (pending.kind === "leave" || pending.kind === "disband") onGone(t(pending.kind === "leave" ? "teams.left" : "teams.disbanded", { team: team.name }));
      setPending(null);
      onChanged();
    } catch (err) {
      setError(errorMessage(err));
      // Refused because the team is not what this card shows (the user was removed meanwhile, the team was
      // locked by an accepted game): the card is read again, so it shows what the refusal is about.
      onChanged();
    } finally {
      setBusy(false);
    }
  }

  const dialogText: Record<Pending["kind"], { title: string; message: string; confirm: string }> = {
    kick: {
      title: t("teams.kickTitle"),
      message: t("teams.kickConfirm", { user: pending && "member" in pending ? pending.member.userName : "", team: team.name }),
      confirm: t("teams.kick"),
    },
    transfer: {
      title: t("teams.transferTitle"),
      message: t("teams.transferConfirm", { user: pending && "member" in pending ? pending.member.userName : "", team: team.name }),
      confirm: t("teams.transfer"),
    },
    leave: { title: t("teams.leaveTitle"), message: t("teams.leaveConfirm", { team: team.name }), confirm: t("teams.leave") },
    disband: { title: t("teams.disbandTitle"), message: t("teams.disbandConfirm", { team: team.name }), confirm: t("teams.disband") },
    renew: { title: t("teams.renewTitle"), message: t("teams.renewConfirm"), confirm: t("teams.renew") },
  };
  const text = pending ? dialogText[pending.kind] : null;

  return (
    <Card aria-labelledby={headingId} data-testid={`team-${team.id}`}>
      <div className="flex flex-wrap items-start gap-4">
        <TeamAvatar name={team.name} avatar={team.avatar} size="lg" />
        <div className="min-w-0 flex-1 basis-48">
          <p role="status" className="sr-only">
            {said}
          </p>
          <h2 id={headingId} tabIndex={-1} className="flex flex-wrap items-center gap-2 text-xl font-semibold focus:outline-none">
            <span className="wrap-anywhere">{team.name}</span>
            {team.lockInForce ? (
              <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900 dark:bg-amber-900/60 dark:text-amber-100">
                {t("teams.locked")}
              </span>
            ) : null}
          </h2>
          <p className="text-sm wrap-anywhere text-zinc-600 dark:text-zinc-400">{team.bio || t("teams.noBio")}</p>
        </div>
        <div className="flex flex-wrap gap-2">
          {/* What the server would refuse is not offered: leaving while the lock is in force, disbanding while
              anything blocks it (the lock, a running game, results in a game). */}
          {isCaptain ? (
            <>
              <Button variant="secondary" onClick={() => setEditing(true)}>
                {t("teams.edit")}
              </Button>
              {team.disbandBlockedBy !== null ? null : (
                <Button variant="danger" onClick={() => ask({ kind: "disband" })}>
                  {t("teams.disband")}
                </Button>
              )}
            </>
          ) : team.lockInForce ? null : (
            <Button variant="secondary" onClick={() => ask({ kind: "leave" })}>
              {t("teams.leave")}
            </Button>
          )}
        </div>
      </div>

      {team.lockInForce ? (
        <div className="mt-4">
          <Alert>{t("teams.lockedNote")}</Alert>
        </div>
      ) : isCaptain && team.disbandBlockedBy === "running" ? (
        <p className="mt-4 text-sm text-zinc-600 dark:text-zinc-400">{t("teams.disbandRunningNote")}</p>
      ) : isCaptain && team.disbandBlockedBy === "results" ? (
        <p className="mt-4 text-sm text-zinc-600 dark:text-zinc-400">{t("teams.disbandResultsNote")}</p>
      ) : null}

      <h3 className="mt-6 mb-2 text-sm font-semibold uppercase tracking-wide text-zinc-600 dark:text-zinc-400">
        {t("teams.members", { count: team.members.length })}
      </h3>
      <ul className="divide-y divide-zinc-200 dark:divide-zinc-800">
        {team.members.map((member) => (
          <li key={member.id} className="flex flex-wrap items-center gap-3 py-2">
            <TeamAvatar name={member.userName} avatar={member.avatar} size="sm" />
            <span className="min-w-0 flex-1 basis-44 truncate font-medium">
              {member.userName}
              {/* The key brings its own space (none before Japanese and Chinese brackets). */}
              {member.id === userId ? <span className="text-zinc-600 dark:text-zinc-400">{t("teams.youMark")}</span> : null}
            </span>
            <span
              className={`rounded-full px-2 py-0.5 text-xs font-medium ${
                member.captain
                  ? "bg-primary-100 text-primary-800 dark:bg-primary-900 dark:text-primary-100"
                  : "bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300"
              }`}
            >
              {member.captain ? t("teams.captain") : t("teams.member")}
            </span>
            {isCaptain && !member.captain && !team.lockInForce ? (
              <span className="flex gap-1">
                <Button variant="ghost" className="px-2 py-1" onClick={() => ask({ kind: "transfer", member })}>
                  {t("teams.makeCaptain")}
                </Button>
                <Button variant="ghost" className="px-2 py-1 text-red-700 dark:text-red-400" onClick={() => ask({ kind: "kick", member })}>
                  {t("teams.kick")}
                </Button>
              </span>
            ) : null}
          </li>
        ))}
      </ul>

      {isCaptain ? (
        <div className="mt-6 grid gap-6 md:grid-cols-2">
          <div className="space-y-2">
            <h3 className="text-sm font-semibold">{t("teams.inviteHeading")}</h3>
            <p className="text-xs text-zinc-600 dark:text-zinc-400">{t("teams.inviteHint")}</p>
            {code ? (
              <div className="flex gap-2">
                <input
                  ref={codeInput}
                  readOnly
                  value={code}
                  aria-label={t("teams.inviteCode")}
                  className="block w-full min-w-0 rounded-md border border-zinc-300 bg-zinc-50 px-3 py-2 font-mono text-xs dark:border-zinc-700 dark:bg-zinc-950"
                  onFocus={(event) => event.currentTarget.select()}
                />
                <CopyButton text={code} onFailure={() => setCodeError(t("teams.copyFailed"))} onCopied={() => setCodeError(null)} />
              </div>
            ) : (
              <Button variant="secondary" onClick={() => void showCode()}>
                {t("teams.showInvite")}
              </Button>
            )}
            {code ? (
              <Button variant="ghost" className="px-2 py-1" onClick={() => ask({ kind: "renew" })}>
                {t("teams.renew")}
              </Button>
            ) : null}
            {codeError ? <Alert tone="error">{codeError}</Alert> : null}
          </div>
          <div className="space-y-2">
            <h3 className="text-sm font-semibold">{t("teams.avatarHeading")}</h3>
            <AvatarUpload teamId={team.id} onUploaded={onChanged} />
          </div>
        </div>
      ) : null}

      <Dialog open={editing} title={t("teams.editTitle")} onClose={() => setEditing(false)}>
        {/* Drawn at each opening, from the team as it is then (the form keeps the values it opened with). */}
        {editing ? (
          <TeamForm
            initial={{ name: team.name, bio: team.bio }}
            submitLabel={t("teams.save")}
            onCancel={() => setEditing(false)}
            onSubmit={async (values) => {
              await api(`/api/team/${team.id}`, { method: "PUT", body: values });
              setEditing(false);
              onChanged();
            }}
          />
        ) : null}
      </Dialog>

      <ConfirmDialog
        open={pending !== null}
        title={text?.title ?? ""}
        message={text?.message ?? ""}
        confirmLabel={text?.confirm ?? ""}
        busy={busy}
        error={error}
        onConfirm={() => void confirm()}
        onCancel={() => setPending(null)}
      />
    </Card>
  );
}
