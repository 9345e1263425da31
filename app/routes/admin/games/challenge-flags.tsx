import { env } from "cloudflare:workers";
import { type FormEvent, useMemo, useState } from "react";
import i18next from "i18next";
import { useTranslation } from "react-i18next";
import { Link, useRevalidator } from "react-router";
import { requireUser } from "~/.server/auth/guard";
import { createDb } from "~/.server/db/client";
import { challengePageId, gamePageId } from "~/.server/services/games";
import { formatBytes } from "~/components/challenges/challenge-view";
import { parseRemotePairs, parseStaticFlags } from "~/components/challenges/flag-lines";
import { uploadForAttachment } from "~/lib/upload";
import { ConfirmDialog } from "~/components/teams/dialog";
import { LoadingStatus } from "~/components/teams/loading";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { TextAreaField, TextField } from "~/components/ui/field";
import { FileChooser } from "~/components/ui/file-chooser";
import { Slotted } from "~/components/ui/slotted";
import { FLAG_ENV_NAME } from "~/core/agent-protocol";
import { checkTemplate, generateTestFlag, MIN_ENTROPY_BITS, parseTemplate, templateEntropy } from "~/core/flags/template";
import { FLAG_MAX_LENGTH } from "~/core/game-room/schemas";
import type { ChallengeEditDetail, FlagInfo } from "~/core/schemas/challenge";
import type { DetailedGameInfo } from "~/core/schemas/game";
import { bindScopedMessage, type ScopedMessage, scopedMessage, shownScopedMessage } from "~/core/ui/scoped-message";
import { api, errorMessage, orNotFound } from "~/lib/api";
import { useErrorFor } from "~/lib/error-for";
import { useIdempotencyKey } from "~/lib/idempotency";
import { pageTitle } from "~/lib/meta";
import { getInstance } from "~/middleware/i18next";
import type { Route } from "./+types/challenge-flags";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireUser(request, env, "Admin");
  // An unknown game or challenge is a 404 page from the server (the page itself is read in the browser).
  const db = createDb(env.DB);
  await challengePageId(db, await gamePageId(db, params.id), params.chalId);
  return { pageTitle: getInstance(context).t("adminChallenges.flagsTitle") };
}

export async function clientLoader({ request, params, serverLoader }: Route.ClientLoaderArgs) {
  const gameId = Number(params.id) || 0;
  const challengeId = Number(params.chalId) || 0;
  const signal = request.signal;
  const [server, challenge, game] = await Promise.all([
    serverLoader(),
    orNotFound(api<ChallengeEditDetail>(`/api/edit/games/${gameId}/challenges/${challengeId}`, { signal })),
    // Its count of accepted teams, not the whole participation list with every member.
    api<DetailedGameInfo>(`/api/game/${gameId}`, { signal }),
  ]);
  // The tab's title names the challenge once it is known (the server's names the page only).
  const pageTitle = i18next.t("common:adminChallenges.flagsOf", { title: challenge.title });
  return { ...server, pageTitle, gameId, challenge, acceptedTeams: game.teamCount };
}
clientLoader.hydrate = true as const;

// No HydrateFallback: the page's title is in the server's HTML (DECISIONS.md, "Server-side titles").
export function meta({ matches, loaderData }: Route.MetaArgs) {
  return pageTitle(matches, loaderData?.pageTitle);
}

/** Runs one admin action with busy/error/success state. */
/**
 * A form's call: busy, the server's answer or error. `contextKey` names what the form adds to (the
 * challenge's flags): an error is shown only while that is unchanged — deleting the flag that made an
 * addition a duplicate clears "This flag already exists" — and a success only until the next change after
 * the form's own (app/core/ui/scoped-message.ts): a flag deleted retires "Flags added".
 */
function useAction(onDone: () => void, contextKey = "") {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useErrorFor(contextKey);
  const [given, setGiven] = useState<ScopedMessage | null>(null);
  // Bound to the list's new key while rendering with it (React's "adjusting state when a prop changes").
  const bound = bindScopedMessage(given, contextKey);
  if (bound !== given) setGiven(bound);
  const success = shownScopedMessage(bound, contextKey);
  async function run(action: () => Promise<string | null>) {
    setBusy(true);
    setError(null);
    setGiven(null);
    try {
      const message = await action();
      setGiven(message === null ? null : scopedMessage(message, contextKey));
      onDone();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }
  return { busy, error, success, setError, run };
}

function Feedback({ error, success }: { error: string | null; success: string | null }) {
  return (
    <>
      {error ? <Alert tone="error">{error}</Alert> : null}
      {success ? <Alert tone="success">{success}</Alert> : null}
    </>
  );
}

function StaticFlagsForm({ url, onDone, flagsKey }: { url: string; onDone: () => void; flagsKey: string }) {
  const { t } = useTranslation();
  const [text, setText] = useState("");
  const action = useAction(onDone, flagsKey);
  // Flags retried after a lost answer are added once.
  const addKeys = useIdempotencyKey();
  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = parseStaticFlags(text);
    if (!parsed.ok) {
      action.setError(t("adminChallenges.flagLineTooLong", { line: parsed.line, max: FLAG_MAX_LENGTH }));
      return;
    }
    if (parsed.flags.length === 0) {
      action.setError(t("adminChallenges.flagsEmpty"));
      return;
    }
    void action.run(async () => {
      const body = parsed.flags.map((flag) => ({ flag }));
      const r = await addKeys.send(body, (idempotencyKey) => api<{ title: string }>(url, { method: "POST", body, idempotencyKey }));
      setText("");
      return r.title;
    });
  }
  return (
    <form className="space-y-3" noValidate onSubmit={submit}>
      <TextAreaField label={t("adminChallenges.staticFlags")} value={text} onChange={(e) => setText(e.target.value)} rows={5} className="font-mono" description={t("adminChallenges.staticFlagsHelp")} />
      <Feedback error={action.error} success={action.success} />
      <Button type="submit" disabled={action.busy}>
        {action.busy ? t("teams.working") : t("adminChallenges.addFlags")}
      </Button>
    </form>
  );
}

function DynamicAttachmentForms({ url, acceptedTeams, onDone, flagsKey }: { url: string; acceptedTeams: number; onDone: () => void; flagsKey: string }) {
  const { t } = useTranslation();
  const [files, setFiles] = useState<File[]>([]);
  const [progress, setProgress] = useState<number | null>(null);
  const [remote, setRemote] = useState("");
  const upload = useAction(onDone, flagsKey);
  const batch = useAction(onDone, flagsKey);
  // Pairs retried after a lost answer are added once.
  const uploadKeys = useIdempotencyKey();
  const batchKeys = useIdempotencyKey();

  function submitFiles(event: FormEvent) {
    event.preventDefault();
    if (files.length === 0) {
      upload.setError(t("adminChallenges.noFiles"));
      return;
    }
    void upload.run(async () => {
      setProgress(0);
      try {
        const r = await uploadForAttachment(files, setProgress, (stored) => {
          const body = stored.map((s, i) => ({ flag: files[i]!.name, attachmentType: "Local", fileHash: s.hash }));
          return uploadKeys.send(body, (idempotencyKey) => api<{ title: string }>(url, { method: "POST", body, idempotencyKey }));
        });
        setFiles([]);
        return r.title;
      } finally {
        setProgress(null);
      }
    });
  }

  function submitRemote(event: FormEvent) {
    event.preventDefault();
    const parsed = parseRemotePairs(remote);
    if (!parsed.ok) {
      batch.setError(
        parsed.reason === "duplicate"
          ? t("adminChallenges.pairLineDuplicate", { line: parsed.line, first: parsed.firstLine })
          : parsed.reason === "tooLong"
            ? t("adminChallenges.flagLineTooLong", { line: parsed.line, max: FLAG_MAX_LENGTH })
            : t("adminChallenges.badPairLine", { line: parsed.line }),
      );
      return;
    }
    if (parsed.pairs.length === 0) {
      batch.setError(t("adminChallenges.flagsEmpty"));
      return;
    }
    void batch.run(async () => {
      const body = parsed.pairs.map((p) => ({ ...p, attachmentType: "Remote" }));
      const r = await batchKeys.send(body, (idempotencyKey) => api<{ title: string }>(url, { method: "POST", body, idempotencyKey }));
      setRemote("");
      return r.title;
    });
  }

  return (
    <div className="space-y-6">
      <Alert tone="info">{t("adminChallenges.pairAdvice", { count: acceptedTeams, suggested: Math.max(2, acceptedTeams * 2) })}</Alert>
      <form className="space-y-3" noValidate onSubmit={submitFiles}>
        <FileChooser id="pair-files" label={t("adminChallenges.pairFiles")} multiple files={files} busy={upload.busy} onChange={setFiles} />
        <p className="text-xs text-zinc-600 dark:text-zinc-400">{t("adminChallenges.pairFilesHelp")}</p>
        {progress !== null ? <progress max={1} value={progress} aria-label={t("adminChallenges.uploading", { percent: Math.round(progress * 100) })} className="w-full" /> : null}
        <Feedback error={upload.error} success={upload.success} />
        <Button type="submit" disabled={upload.busy}>
          {upload.busy ? t("teams.working") : t("adminChallenges.uploadPairs", { count: files.length })}
        </Button>
      </form>
      <form className="space-y-3" noValidate onSubmit={submitRemote}>
        <TextAreaField label={t("adminChallenges.remotePairs")} value={remote} onChange={(e) => setRemote(e.target.value)} rows={5} className="font-mono" description={t("adminChallenges.remotePairsHelp")} />
        <Feedback error={batch.error} success={batch.success} />
        <Button type="submit" variant="secondary" disabled={batch.busy}>
          {batch.busy ? t("teams.working") : t("adminChallenges.addRemotePairs")}
        </Button>
      </form>
    </div>
  );
}

function TemplateEditor({ gameId, challenge, onDone }: { gameId: number; challenge: ChallengeEditDetail; onDone: () => void }) {
  const { t } = useTranslation();
  const [template, setTemplate] = useState(challenge.flagTemplate ?? "");
  const action = useAction(onDone);
  const problem = template === "" ? null : checkTemplate(template);
  const info = useMemo(() => {
    if (template.trim() === "") return null;
    const parsed = parseTemplate(template);
    return { mode: parsed.mode, placeholder: parsed.hasPlaceholder, bits: templateEntropy(template) };
  }, [template]);
  const sample = useMemo(() => (problem === null ? generateTestFlag(template) : null), [template, problem]);

  function submit(event: FormEvent) {
    event.preventDefault();
    void action.run(async () => {
      await api(`/api/edit/games/${gameId}/challenges/${challenge.id}`, { method: "PUT", body: { flagTemplate: template } });
      return t("adminChallenges.templateSaved");
    });
  }

  return (
    <form className="space-y-3" noValidate onSubmit={submit}>
      <TextField label={t("adminChallenges.template")} value={template} maxLength={120} onChange={(e) => setTemplate(e.target.value)} className="font-mono" placeholder="flag{[TEAM_HASH]}" />
      <p className="text-xs text-zinc-600 dark:text-zinc-400" data-testid="flag-env">
        {t("adminChallenges.templateEnv", { name: FLAG_ENV_NAME })}
      </p>
      <div className="space-y-1 text-sm" aria-live="polite">
        {template === "" ? <p>{t("adminChallenges.templateEmpty")}</p> : null}
        {template !== (challenge.flagTemplate ?? "") ? <p className="font-medium text-amber-700 dark:text-amber-400">{t("adminChallenges.templateUnsaved")}</p> : null}
        {info ? (
          <p data-testid="template-entropy">
            {info.placeholder ? t("adminChallenges.templatePlaceholder") : t("adminChallenges.entropy", { bits: info.bits.toFixed(1), min: MIN_ENTROPY_BITS })}
          </p>
        ) : null}
        {problem ? (
          <p className="text-red-700 dark:text-red-400">{t(`adminChallenges.templateProblem.${problem}`)}</p>
        ) : (
          <p className="text-emerald-700 dark:text-emerald-400">{t("adminChallenges.templateValid")}</p>
        )}
        {info?.mode === "complex" ? <p className="text-amber-700 dark:text-amber-400">{t("adminChallenges.cleetWarning")}</p> : null}
        {sample ? (
          <p>
            <Slotted text={(flag) => t("adminChallenges.sampleFlagLine", { flag })}>
              <code className="font-mono break-all" data-testid="sample-flag">
                {sample}
              </code>
            </Slotted>
          </p>
        ) : null}
      </div>
      <details className="text-sm">
        <summary className="cursor-pointer font-medium">{t("adminChallenges.templateHelpTitle")}</summary>
        <ul className="mt-2 list-disc space-y-1 ps-5 text-zinc-700 dark:text-zinc-300">
          {(["guid", "teamHash", "leet", "cleet", "braces", "empty"] as const).map((k) => (
            <li key={k}>{t(`adminChallenges.templateHelp.${k}`)}</li>
          ))}
        </ul>
      </details>
      <Feedback error={action.error} success={action.success} />
      <Button type="submit" disabled={action.busy || problem !== null}>
        {action.busy ? t("teams.working") : t("adminChallenges.saveTemplate")}
      </Button>
    </form>
  );
}

/**
 * A local file of a (flag, file) pair: every pair downloads under the challenge's one file name, so the
 * list tells them apart by size and the start of the content hash (the `/assets/{hash}/…` address).
 */
function localFileLabel(url: string, size: number | null, file: string): string {
  const hash = /^\/assets\/([0-9a-f]{64})\//.exec(url)?.[1];
  return [file, size != null ? formatBytes(size) : null, hash ? hash.slice(0, 8) : null].filter(Boolean).join(" · ");
}

function FlagList({ gameId, challenge, onDone, flagsKey }: { gameId: number; challenge: ChallengeEditDetail; onDone: () => void; flagsKey: string }) {
  const { t } = useTranslation();
  const [deleting, setDeleting] = useState<FlagInfo | null>(null);
  const action = useAction(onDone, flagsKey);
  return (
    <div className="space-y-2">
      <h3 className="font-semibold">{t("adminChallenges.flagCount", { count: challenge.flags.length })}</h3>
      <Feedback error={null} success={action.success} />
      {challenge.flags.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("adminChallenges.noFlags")}</p>
      ) : (
        <ul className="divide-y divide-zinc-200 dark:divide-zinc-800">
          {challenge.flags.map((f) => (
            <li key={f.id} className="flex items-center justify-between gap-3 py-2 text-sm">
              <div className="min-w-0">
                <code className="font-mono break-all">{f.flag}</code>
                {f.attachment?.url ? (
                  <a href={f.attachment.url} className="ms-3 text-xs break-all text-primary-700 underline dark:text-primary-300">
                    {f.attachment.type === "Remote" ? f.attachment.url : localFileLabel(f.attachment.url, f.attachment.fileSize, t("adminChallenges.file"))}
                  </a>
                ) : null}
                {f.team !== null ? (
                  <span className="ms-3 text-xs text-zinc-600 dark:text-zinc-400">{t("adminChallenges.flagGivenTo", { team: f.team })}</span>
                ) : null}
              </div>
              <Button variant="ghost" className="px-2 py-1 text-red-700 dark:text-red-400" aria-label={t("adminChallenges.deleteFlagNamed", { flag: f.flag })} onClick={() => setDeleting(f)}>
                {t("adminChallenges.deleteFlag")}
              </Button>
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={t("adminChallenges.deleteFlagTitle")}
        message={
          <div className="space-y-2">
            <code className="block font-mono break-all">{deleting?.flag}</code>
            <p>
              {deleting?.team == null
                ? t("adminChallenges.deleteFlagConfirm")
                : t(
                    // The team gets another pair on its next open only if an unused one is left.
                    challenge.flags.some((f) => f.team === null && f.id !== deleting.id) ? "adminChallenges.deleteGivenFlag" : "adminChallenges.deleteGivenFlagNoSpare",
                    { team: deleting.team },
                  )}
            </p>
          </div>
        }
        confirmLabel={t("adminChallenges.deleteFlag")}
        busy={action.busy}
        error={action.error}
        onConfirm={() =>
          void action.run(async () => {
            const r = await api<{ title: string }>(`/api/edit/games/${gameId}/challenges/${challenge.id}/flags/${deleting!.id}`, { method: "DELETE" });
            setDeleting(null);
            return r.title;
          })
        }
        onCancel={() => setDeleting(null)}
      />
    </div>
  );
}

export default function AdminChallengeFlagsPage({ loaderData }: Route.ComponentProps) {
  // Server-rendered data carries no API data; the browser loader fills it in.
  if (!("challenge" in loaderData)) return <LoadingStatus />;
  return <AdminChallengeFlagsView loaderData={loaderData} />;
}

function AdminChallengeFlagsView({ loaderData }: { loaderData: Awaited<ReturnType<typeof clientLoader>> }) {
  const { t } = useTranslation();
  const { revalidate } = useRevalidator();
  const { gameId, challenge, acceptedTeams } = loaderData;
  const url = `/api/edit/games/${gameId}/challenges/${challenge.id}/flags`;
  const done = () => void revalidate();
  const flagsKey = challenge.flags.map((f) => f.id).join(",");
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center gap-3">
        <Link to={`/admin/games/${gameId}/challenges/${challenge.id}`} className="text-sm text-primary-700 hover:underline dark:text-primary-300">
          ← {challenge.title}
        </Link>
        <span className="rounded bg-zinc-100 px-2 py-0.5 text-xs dark:bg-zinc-800">{t(`challenge.type.${challenge.type}`)}</span>
      </div>
      <h2 className="text-xl font-semibold break-words">{t("adminChallenges.flagsOf", { title: challenge.title })}</h2>
      <Card className="space-y-4">
        {challenge.type === "DynamicContainer" ? <TemplateEditor key={challenge.id} gameId={gameId} challenge={challenge} onDone={done} /> : null}
        {challenge.type === "DynamicAttachment" ? <DynamicAttachmentForms url={url} acceptedTeams={acceptedTeams} onDone={done} flagsKey={flagsKey} /> : null}
        {challenge.type === "StaticAttachment" || challenge.type === "StaticContainer" ? <StaticFlagsForm url={url} onDone={done} flagsKey={flagsKey} /> : null}
      </Card>
      {challenge.type !== "DynamicContainer" ? (
        <Card>
          <FlagList gameId={gameId} challenge={challenge} onDone={done} flagsKey={flagsKey} />
        </Card>
      ) : null}
    </div>
  );
}
