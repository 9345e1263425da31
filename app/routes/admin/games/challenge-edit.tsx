import { env } from "cloudflare:workers";
import { type FormEvent, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate, useRevalidator } from "react-router";
import { requireUser } from "~/.server/auth/guard";
import { createDb } from "~/.server/db/client";
import { challengePageId, gamePageId } from "~/.server/services/games";
import { ChallengeView } from "~/components/challenges/challenge-view";
import { TestContainerControls } from "~/components/containers/test-container";
import { CheckboxField, SelectField } from "~/components/challenges/fields";
import { ScoreChart } from "~/components/challenges/score-chart";
import { uploadForAttachment } from "~/lib/upload";
import { fromLocalInput, toLocalInput, useNow } from "~/components/games/time";
import { MarkdownEditor } from "~/components/markdown-editor";
import { LEAVE_WITHOUT_ASKING, LeaveGuard } from "~/components/leave-guard";
import { ConfirmDialog, Dialog } from "~/components/teams/dialog";
import { LoadingStatus } from "~/components/teams/loading";
import { Alert } from "~/components/ui/alert";
import { Button, buttonClass } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { useCharacterLimit } from "~/components/ui/character-limit";
import { FieldErrors, TextField } from "~/components/ui/field";
import { FileChooser } from "~/components/ui/file-chooser";
import { Slotted } from "~/components/ui/slotted";
import { CHALLENGE_CATEGORIES, type ChallengeCategory, type FileType, FILE_TYPES, isContainerType, NETWORK_MODES, type NetworkMode } from "~/core/enums";
import { type ChallengeDetail, type ChallengeEditDetail, type ChallengeEditInfo, HINT_MAX } from "~/core/schemas/challenge";
import { api, apiVersioned, errorMessage, fieldError, isStaleWrite, orNotFound } from "~/lib/api";
import { useFocusInvalid } from "~/lib/focus-invalid";
import { loadEditGame } from "~/lib/edit-game";
import { changedFields } from "~/core/ui/changed-fields";
import { mergeHints } from "~/core/ui/merge-hints";
import { sameValues } from "~/core/ui/same-values";
import { saveOnVersion } from "~/core/ui/save-on-version";
import { pageTitle } from "~/lib/meta";
import { getInstance } from "~/middleware/i18next";
import type { Route } from "./+types/challenge-edit";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireUser(request, env, "Admin");
  // An unknown game or challenge is a 404 page from the server (the page itself is read in the browser).
  const db = createDb(env.DB);
  await challengePageId(db, await gamePageId(db, params.id), params.chalId);
  return { pageTitle: getInstance(context).t("adminChallenges.editTitle") };
}

export async function clientLoader({ request, params, serverLoader }: Route.ClientLoaderArgs) {
  const gameId = Number(params.id) || 0;
  const challengeId = Number(params.chalId) || 0;
  const signal = request.signal;
  const [server, challenge, list, game] = await Promise.all([
    serverLoader(),
    orNotFound(api<ChallengeEditDetail>(`/api/edit/games/${gameId}/challenges/${challengeId}`, { signal })),
    api<ChallengeEditInfo[]>(`/api/edit/games/${gameId}/challenges`, { signal }),
    loadEditGame(request, gameId),
  ]);
  return { ...server, gameId, challenge, list, bloodBonus: game.bloodBonus };
}
clientLoader.hydrate = true as const;

// No HydrateFallback: the page's title is in the server's HTML (DECISIONS.md, "Server-side titles").
export function meta({ matches, loaderData }: Route.MetaArgs) {
  return pageTitle(matches, loaderData && "challenge" in loaderData ? loaderData.challenge.title : loaderData?.pageTitle);
}

interface Draft {
  title: string;
  content: string;
  category: ChallengeCategory;
  hints: string[];
  originalScore: string;
  difficulty: string;
  minScoreRate: string;
  disableBloodBonus: boolean;
  containerImage: string;
  cpuCount: string;
  memoryLimit: string;
  storageLimit: string;
  exposePort: string;
  networkMode: NetworkMode;
  enableTrafficCapture: boolean;
  fileName: string;
  deadline: string;
  submissionLimit: string;
}

function toDraft(c: ChallengeEditDetail): Draft {
  return {
    title: c.title,
    content: c.content,
    category: c.category,
    hints: c.hints,
    originalScore: String(c.originalScore),
    difficulty: String(c.difficulty),
    minScoreRate: String(c.minScoreRate),
    disableBloodBonus: c.disableBloodBonus,
    containerImage: c.containerImage ?? "",
    cpuCount: String(c.cpuCount),
    memoryLimit: String(c.memoryLimit),
    storageLimit: String(c.storageLimit),
    exposePort: String(c.exposePort),
    networkMode: c.networkMode,
    enableTrafficCapture: c.enableTrafficCapture,
    fileName: c.fileName,
    deadline: c.deadlineUtc ? toLocalInput(c.deadlineUtc) : "",
    submissionLimit: String(c.submissionLimit),
  };
}

/** The number fields a save needs (an empty deadline clears it; these have no "none"). */
function requiredNumbers(container: boolean): ("originalScore" | "difficulty" | "minScoreRate" | "submissionLimit" | "cpuCount" | "memoryLimit" | "storageLimit" | "exposePort")[] {
  const scoring = ["originalScore", "difficulty", "minScoreRate", "submissionLimit"] as const;
  return container ? [...scoring, "cpuCount", "memoryLimit", "storageLimit", "exposePort"] : [...scoring];
}

/** The PUT body of a draft (numbers parsed; an empty deadline clears it). */
function toUpdate(d: Draft, container: boolean) {
  return {
    title: d.title,
    content: d.content,
    category: d.category,
    // As the server stores them (trimmed, blanks dropped), so an empty row is no change.
    hints: d.hints.map((h) => h.trim()).filter((h) => h !== ""),
    originalScore: Number(d.originalScore),
    difficulty: Number(d.difficulty),
    minScoreRate: Number(d.minScoreRate),
    disableBloodBonus: d.disableBloodBonus,
    fileName: d.fileName,
    deadlineUtc: d.deadline ? (fromLocalInput(d.deadline) ?? 0) : 0,
    submissionLimit: Number(d.submissionLimit),
    ...(container
      ? {
          containerImage: d.containerImage,
          cpuCount: Number(d.cpuCount),
          memoryLimit: Number(d.memoryLimit),
          storageLimit: Number(d.storageLimit),
          exposePort: Number(d.exposePort),
          networkMode: d.networkMode,
          enableTrafficCapture: d.enableTrafficCapture,
        }
      : {}),
  };
}

/** One hint's box; its limit is in characters, as the server counts them. */
function HintInput({ label, value, onChange }: { label: string; value: string; onChange: (value: string) => void }) {
  const limit = useCharacterLimit<HTMLInputElement>(HINT_MAX, value);
  return (
    <input
      aria-label={label}
      value={value}
      {...limit}
      onChange={(e) => onChange(e.target.value)}
      className="block w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm dark:border-zinc-700 dark:bg-zinc-900"
    />
  );
}

function HintsEditor({ hints, onChange }: { hints: string[]; onChange: (hints: string[]) => void }) {
  const { t } = useTranslation();
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium">{t("adminChallenges.hints")}</legend>
      {hints.map((hint, i) => (
        <div key={i} className="flex items-center gap-2">
          <HintInput
            label={t("adminChallenges.hintN", { n: i + 1 })}
            value={hint}
            onChange={(value) => onChange(hints.map((h, j) => (j === i ? value : h)))}
          />
          <Button
            variant="ghost"
            className="shrink-0 px-2 py-1 whitespace-nowrap"
            aria-label={t("adminChallenges.removeHintN", { n: i + 1 })}
            onClick={() => onChange(hints.filter((_, j) => j !== i))}
          >
            {t("adminChallenges.removeHint")}
          </Button>
        </div>
      ))}
      <Button variant="secondary" onClick={() => onChange([...hints, ""])}>
        {t("adminChallenges.addHint")}
      </Button>
    </fieldset>
  );
}

function AttachmentEditor({ gameId, challenge, onSaved }: { gameId: number; challenge: ChallengeEditDetail; onSaved: () => void }) {
  const { t } = useTranslation();
  const [type, setType] = useState<FileType>(challenge.attachment?.type ?? "None");
  const [remoteUrl, setRemoteUrl] = useState(challenge.attachment?.type === "Remote" ? (challenge.attachment.url ?? "") : "");
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);

  async function save(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setSaved(false);
    if (type === "Local" && !file) {
      setError(t("adminChallenges.chooseFile"));
      return;
    }
    setBusy(true);
    try {
      const attach = (fileHash?: string) =>
        api(`/api/edit/games/${gameId}/challenges/${challenge.id}/attachment`, {
          method: "POST",
          body: { attachmentType: type, fileHash, remoteUrl: type === "Remote" ? remoteUrl : undefined },
        });
      if (type === "Local" && file) {
        setProgress(0);
        await uploadForAttachment([file], setProgress, (stored) => attach(stored[0]?.hash));
      } else await attach();
      setSaved(true);
      setFile(null);
      onSaved();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
      setProgress(null);
    }
  }

  return (
    <form className="space-y-3" noValidate onSubmit={(e) => void save(e)}>
      <h3 className="font-semibold">{t("adminChallenges.attachment")}</h3>
      {challenge.attachment?.url ? (
        <p className="text-sm">
          <Slotted text={(url) => t("adminChallenges.currentAttachmentLine", { url })}>
            <a href={challenge.attachment.url} className="break-all text-primary-700 underline dark:text-primary-300">
              {challenge.attachment.url}
            </a>
          </Slotted>
        </p>
      ) : (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("adminChallenges.noAttachment")}</p>
      )}
      <div role="radiogroup" aria-label={t("adminChallenges.attachmentType")} className="flex gap-4 text-sm">
        {FILE_TYPES.map((ft) => (
          <label key={ft} className="flex items-center gap-1.5">
            <input type="radio" name="attachmentType" value={ft} checked={type === ft} onChange={() => setType(ft)} className="accent-primary-600" />
            {t(`adminChallenges.attachmentTypes.${ft}`)}
          </label>
        ))}
      </div>
      {type === "Local" ? (
        <div className="space-y-1.5">
          <FileChooser id="attachment-file" label={t("adminChallenges.file")} files={file ? [file] : []} busy={busy} onChange={(files) => setFile(files[0] ?? null)} />
          {progress !== null ? (
            <progress max={1} value={progress} aria-label={t("adminChallenges.uploading", { percent: Math.round(progress * 100) })} className="w-full" />
          ) : null}
        </div>
      ) : null}
      {type === "Remote" ? <TextField label={t("adminChallenges.remoteUrl")} type="url" value={remoteUrl} onChange={(e) => setRemoteUrl(e.target.value)} placeholder="https://" /> : null}
      {error ? <Alert tone="error">{error}</Alert> : null}
      {saved ? <Alert tone="success">{t("adminChallenges.attachmentSaved")}</Alert> : null}
      <Button type="submit" variant="secondary" disabled={busy}>
        {busy ? t("teams.working") : t("adminChallenges.saveAttachment")}
      </Button>
    </form>
  );
}

/** The player's view of the draft, as the preview dialog shows it. */
/** What players see of the draft; the score is the current value (after solves) unless the draft changes it. */
function previewDetail(c: ChallengeEditDetail, d: Draft, currentScore: number | undefined): ChallengeDetail {
  const attachment = c.type === "DynamicAttachment" ? (c.flags[0]?.attachment ?? null) : c.attachment;
  return {
    id: c.id,
    title: d.title,
    content: d.content,
    category: d.category,
    hints: d.hints.filter((h) => h.trim()),
    score: currentScore !== undefined && d.originalScore.trim() === String(c.originalScore) ? currentScore : Number(d.originalScore) || 0,
    type: c.type,
    context: { closeTime: null, instanceEntry: null, url: attachment?.url ?? null, fileSize: attachment?.fileSize ?? null },
    limit: Number(d.submissionLimit) || 0,
    attempts: 0,
    deadline: d.deadline ? fromLocalInput(d.deadline) : null,
  };
}

/** The form's fields a server refusal can be shown at (api.md's names). */
const EDIT_FIELDS = ["title", "originalScore", "difficulty", "minScoreRate", "deadline", "submissionLimit", "cpuCount", "memoryLimit", "storageLimit", "exposePort", "fileName", "containerImage"] as const;
type EditField = (typeof EDIT_FIELDS)[number];

export default function AdminChallengeEditPage({ loaderData }: Route.ComponentProps) {
  const { revalidate } = useRevalidator();
  // Server-rendered data carries no API data; the browser loader fills it in.
  if (!("challenge" in loaderData)) return <LoadingStatus />;
  const { gameId, challenge, list, bloodBonus } = loaderData;
  // Keyed by id so previous/next navigation starts from the other challenge's saved values.
  return <Editor key={challenge.id} gameId={gameId} challenge={challenge} list={list} bloodBonus={bloodBonus} onChanged={() => void revalidate()} />;
}

function Editor({
  gameId,
  challenge,
  list,
  bloodBonus,
  onChanged,
}: {
  gameId: number;
  challenge: ChallengeEditDetail;
  list: ChallengeEditInfo[];
  bloodBonus: number;
  onChanged: () => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [draft, setDraft] = useState(() => toDraft(challenge));
  // What the form shows as saved: the challenge as opened, then each body this form saved. Not the record
  // as reloaded: another tab's change of a field this form still shows the old value of is not this
  // form's change, and must not be sent back.
  const [shown, setShown] = useState(() => toUpdate(toDraft(challenge), isContainerType(challenge.type)));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [noChange, setNoChange] = useState(false);
  // The form's own save answers next to its Save button (the top of a long form is off-screen there), and
  // a refusal about one field at that field, which takes the focus.
  const [atForm, setAtForm] = useState(false);
  const [fieldErr, setFieldErr] = useState<{ field: EditField; message: string } | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  useFocusInvalid(formRef, fieldErr);
  const errAt = (field: EditField) => (fieldErr?.field === field ? fieldErr.message : null);
  const [preview, setPreview] = useState(false);
  const now = useNow(60_000);
  const [deleting, setDeleting] = useState(false);
  // Disabling a solved challenge takes its points off every team's score: asked first (as on the list's switch).
  const [disablingSolved, setDisablingSolved] = useState(false);
  const container = isContainerType(challenge.type);
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const index = list.findIndex((c) => c.id === challenge.id);
  const previous = index > 0 ? list[index - 1] : undefined;
  const next = index >= 0 && index < list.length - 1 ? list[index + 1] : undefined;
  const base = `/admin/games/${gameId}/challenges`;

  const url = `/api/edit/games/${gameId}/challenges/${challenge.id}`;
  // Edits not saved yet: leaving the page (Previous/Next, the list, the flags) asks first.
  const dirty = Object.keys(changedFields(shown, toUpdate(draft, container))).length > 0;

  async function save(send: () => Promise<ChallengeEditDetail>, message: string, fromForm = false): Promise<ChallengeEditDetail | null> {
    setBusy(true);
    setError(null);
    setSaved(null);
    setNoChange(false);
    setFieldErr(null);
    setAtForm(fromForm);
    try {
      const stored = await send();
      setSaved(message);
      onChanged();
      return stored;
    } catch (err) {
      const field = fromForm ? fieldError(err, EDIT_FIELDS) : null;
      if (field) setFieldErr(field);
      else setError(errorMessage(err));
      return null;
    } finally {
      setBusy(false);
    }
  }

  const put = (body: Record<string, unknown>, message: string) => save(() => api<ChallengeEditDetail>(url, { method: "PUT", body }), message);

  async function saveDraft() {
    // Only what this form changed since it showed `shown` (another tab's saves of other fields stay). The
    // hints go as a whole list (a missing one is deleted): this tab's changes are merged onto the list as
    // it is now, so a hint another tab added or edited meanwhile is kept, and written only over the
    // version merged onto (If-Match): a save landing between the read and the write is merged in too.
    const changed = changedFields(shown, toUpdate(draft, container));
    const mine = changed.hints;
    const stored = await save(
      () =>
        mine
          ? saveOnVersion({
              read: () => apiVersioned<ChallengeEditDetail>(url),
              write: (current, etag) => api<ChallengeEditDetail>(url, { method: "PUT", body: { ...changed, hints: mergeHints(shown.hints, mine, current.hints) }, ifMatch: etag }),
              isStale: isStaleWrite,
            })
          : api<ChallengeEditDetail>(url, { method: "PUT", body: changed }),
      t("adminChallenges.saved"),
      true,
    );
    if (!stored) return;
    // The form shows what was stored (a blank hint dropped, text trimmed, another tab's hints), not what was typed.
    const kept = toDraft(stored);
    setDraft(kept);
    setShown(toUpdate(kept, container));
  }

  async function toggleEnabled() {
    await put({ isEnabled: !challenge.isEnabled }, challenge.isEnabled ? t("adminChallenges.disabledNow") : t("adminChallenges.enabledNow"));
    setDisablingSolved(false);
  }

  async function remove() {
    setBusy(true);
    try {
      await api(url, { method: "DELETE" });
      // In place of the deleted challenge's entry: Back does not lead to a page that is gone.
      void navigate(base, { replace: true, state: LEAVE_WITHOUT_ASKING });
    } catch (err) {
      setError(errorMessage(err));
      setBusy(false);
      setDeleting(false);
    }
  }

  const params = { originalScore: Number(draft.originalScore), minScoreRate: Number(draft.minScoreRate), difficulty: Number(draft.difficulty) };

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="flex items-center gap-2">
          <Link to={base} className="text-sm text-primary-700 hover:underline dark:text-primary-300">
            ← {t("adminChallenges.backToList")}
          </Link>
          <span className="rounded bg-zinc-100 px-2 py-0.5 text-xs dark:bg-zinc-800">{t(`challenge.type.${challenge.type}`)}</span>
          <span className={`rounded px-2 py-0.5 text-xs ${challenge.isEnabled ? "bg-emerald-100 text-emerald-900 dark:bg-emerald-900 dark:text-emerald-100" : "bg-zinc-100 dark:bg-zinc-800"}`}>
            {challenge.isEnabled ? t("adminChallenges.stateEnabled") : t("adminChallenges.stateDisabled")}
          </span>
        </div>
        <nav aria-label={t("adminChallenges.navigation")} className="flex gap-2">
          {previous ? (
            <Link className={buttonClass("secondary")} to={`${base}/${previous.id}`}>
              ← {t("adminChallenges.previous")}
            </Link>
          ) : null}
          {next ? (
            <Link className={buttonClass("secondary")} to={`${base}/${next.id}`}>
              {t("adminChallenges.next")} →
            </Link>
          ) : null}
        </nav>
      </div>
      {/* The stored title (the page's h1 is the game's): the form below edits a draft of it. */}
      <h2 className="text-xl font-semibold break-words">{challenge.title}</h2>
      <div className="flex flex-wrap gap-2">
        <Button
          onClick={() => {
            if (challenge.isEnabled && challenge.acceptedCount > 0) setDisablingSolved(true);
            else void toggleEnabled();
          }}
          disabled={busy}
        >
          {challenge.isEnabled ? t("adminChallenges.disable") : t("adminChallenges.enable")}
        </Button>
        <Link className={buttonClass("secondary")} to={`${base}/${challenge.id}/flags`}>
          {challenge.type === "DynamicContainer" ? t("adminChallenges.templateLink") : t("adminChallenges.flagsLink", { count: challenge.flags.length })}
        </Link>
        <Button variant="secondary" onClick={() => setPreview(true)}>
          {t("adminChallenges.preview")}
        </Button>
        <Button variant="danger" onClick={() => setDeleting(true)} disabled={busy}>
          {t("adminChallenges.delete")}
        </Button>
      </div>
      {!atForm && error ? <Alert tone="error">{error}</Alert> : null}
      {!atForm && saved ? <Alert tone="success">{saved}</Alert> : null}

      <form
        ref={formRef}
        className="space-y-6"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          // A date with a part missing reads as "" (no deadline): refuse it at the field instead of clearing the deadline.
          const deadline = e.currentTarget.elements.namedItem("deadline");
          if (deadline instanceof HTMLInputElement && deadline.validity.badInput) {
            setSaved(null);
            setNoChange(false);
            setError(null);
            setAtForm(true);
            setFieldErr({ field: "deadline", message: t("adminChallenges.deadlineIncomplete") });
            return;
          }
          // An emptied number field would be sent as 0 (a 0-point challenge, "Saved"): it is named instead.
          // (A loaded number is never empty: an empty one is the admin's change, and is checked first.)
          const empty = requiredNumbers(container).find((key) => draft[key].trim() === "");
          const unchanged = !empty && sameValues(toUpdate(draft, container), shown);
          if (empty || unchanged) {
            setSaved(null);
            setFieldErr(null);
            setAtForm(true);
            setNoChange(unchanged);
            setError(empty ? t("adminChallenges.numberRequired", { field: t(`adminChallenges.${empty}`) }) : null);
            return;
          }
          void saveDraft();
        }}
      >
        <FieldErrors refusal={fieldErr}>
          <Card className="space-y-4">
            <TextField label={t("adminChallenges.titleLabel")} value={draft.title} maxLength={64} onChange={(e) => set("title", e.target.value)} required error={errAt("title")} />
            <SelectField
              label={t("adminChallenges.category")}
              value={draft.category}
              onChange={(e) => set("category", e.target.value as ChallengeCategory)}
              options={CHALLENGE_CATEGORIES.map((c) => ({ value: c, label: t(`challenge.category.${c}`) }))}
            />
            <MarkdownEditor label={t("adminChallenges.description")} name="content" value={draft.content} onChange={(v) => set("content", v)} />
            <HintsEditor hints={draft.hints} onChange={(hints) => set("hints", hints)} />
          </Card>

          <Card className="space-y-4">
            <h3 className="font-semibold">{t("adminChallenges.scoring")}</h3>
            <p className="text-sm text-zinc-600 dark:text-zinc-400" data-testid="challenge-solves">
              {t("adminChallenges.solvedBy", { count: challenge.acceptedCount })}
            </p>
            <div className="grid gap-4 sm:grid-cols-3">
              <TextField label={t("adminChallenges.originalScore")} type="number" min={0} value={draft.originalScore} onChange={(e) => set("originalScore", e.target.value)} error={errAt("originalScore")} />
              <TextField label={t("adminChallenges.difficulty")} type="number" min={0.1} step={0.1} value={draft.difficulty} onChange={(e) => set("difficulty", e.target.value)} error={errAt("difficulty")} />
              <TextField label={t("adminChallenges.minScoreRate")} type="number" min={0} max={1} step={0.01} value={draft.minScoreRate} onChange={(e) => set("minScoreRate", e.target.value)} error={errAt("minScoreRate")} />
            </div>
            <ScoreChart params={params} bloodBonus={bloodBonus} disableBloodBonus={draft.disableBloodBonus} />
            <CheckboxField label={t("adminChallenges.disableBloodBonus")} checked={draft.disableBloodBonus} onChange={(v) => set("disableBloodBonus", v)} />
            <div className="grid gap-4 sm:grid-cols-2">
              <TextField label={t("adminChallenges.deadline")} name="deadline" type="datetime-local" value={draft.deadline} onChange={(e) => set("deadline", e.target.value)} description={t("adminChallenges.deadlineHelp")} error={errAt("deadline")} />
              <TextField label={t("adminChallenges.submissionLimit")} type="number" min={0} max={10000} value={draft.submissionLimit} onChange={(e) => set("submissionLimit", e.target.value)} description={t("adminChallenges.submissionLimitHelp")} error={errAt("submissionLimit")} />
            </div>
          </Card>

          {container ? (
            <Card className="space-y-4">
              <h3 className="font-semibold">{t("adminChallenges.container")}</h3>
              <TextField label={t("adminChallenges.containerImage")} value={draft.containerImage} onChange={(e) => set("containerImage", e.target.value)} description={t("adminChallenges.containerImageHint")} error={errAt("containerImage")} />
              <div className="grid gap-4 sm:grid-cols-4">
                <TextField label={t("adminChallenges.cpuCount")} type="number" min={1} max={1024} value={draft.cpuCount} onChange={(e) => set("cpuCount", e.target.value)} error={errAt("cpuCount")} />
                <TextField label={t("adminChallenges.memoryLimit")} type="number" min={32} value={draft.memoryLimit} onChange={(e) => set("memoryLimit", e.target.value)} error={errAt("memoryLimit")} />
                <TextField label={t("adminChallenges.storageLimit")} type="number" min={1} value={draft.storageLimit} onChange={(e) => set("storageLimit", e.target.value)} error={errAt("storageLimit")} />
                <TextField label={t("adminChallenges.exposePort")} type="number" min={1} max={65535} value={draft.exposePort} onChange={(e) => set("exposePort", e.target.value)} error={errAt("exposePort")} />
              </div>
              <SelectField
                label={t("adminChallenges.networkMode")}
                value={draft.networkMode}
                onChange={(e) => set("networkMode", e.target.value as NetworkMode)}
                options={NETWORK_MODES.map((m) => ({ value: m, label: t(`adminChallenges.networkModes.${m}`) }))}
              />
              <CheckboxField label={t("adminChallenges.trafficCapture")} checked={draft.enableTrafficCapture} onChange={(v) => set("enableTrafficCapture", v)} />
            </Card>
          ) : null}

          {challenge.type === "DynamicAttachment" ? (
            <Card className="space-y-2">
              <TextField label={t("adminChallenges.fileName")} value={draft.fileName} maxLength={255} onChange={(e) => set("fileName", e.target.value)} description={t("adminChallenges.fileNameHelp")} error={errAt("fileName")} />
            </Card>
          ) : null}
        </FieldErrors>

        {atForm && error ? <Alert tone="error">{error}</Alert> : null}
        {atForm && saved ? <Alert tone="success">{saved}</Alert> : null}
        {noChange ? <Alert tone="info">{t("common.noChange")}</Alert> : null}
        <div className="flex justify-end">
          <Button type="submit" disabled={busy}>
            {busy ? t("teams.working") : t("adminChallenges.save")}
          </Button>
        </div>
      </form>

      {container ? (
        <Card>
          {/* Keyed by the saved image: a new image starts without the last attempt's error. */}
          <TestContainerControls key={challenge.containerImage ?? ""} gameId={gameId} challengeId={challenge.id} initial={challenge.testContainer} />
        </Card>
      ) : null}

      {challenge.type !== "DynamicAttachment" ? (
        <Card>
          <AttachmentEditor gameId={gameId} challenge={challenge} onSaved={onChanged} />
        </Card>
      ) : null}

      <Dialog open={preview} title={draft.title} onClose={() => setPreview(false)}>
        <div className="space-y-4">
          <ChallengeView detail={previewDetail(challenge, draft, list[index]?.score)} now={now} />
          <div className="flex justify-end">
            <Button variant="secondary" onClick={() => setPreview(false)}>
              {t("adminChallenges.closePreview")}
            </Button>
          </div>
        </div>
      </Dialog>
      <LeaveGuard dirty={dirty} />
      <ConfirmDialog
        open={disablingSolved}
        title={t("adminChallenges.disableSolvedTitle", { title: challenge.title })}
        message={t("adminChallenges.disableSolvedConfirm", { count: challenge.acceptedCount })}
        confirmLabel={t("adminChallenges.disable")}
        busy={busy}
        error={null}
        onConfirm={() => void toggleEnabled()}
        onCancel={() => setDisablingSolved(false)}
      />
      <ConfirmDialog
        open={deleting}
        title={t("adminChallenges.delete")}
        message={t("adminChallenges.deleteConfirm", { title: challenge.title })}
        confirmLabel={t("adminChallenges.delete")}
        busy={busy}
        error={null}
        onConfirm={() => void remove()}
        onCancel={() => setDeleting(false)}
      />
    </div>
  );
}
