import { env } from "cloudflare:workers";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useRevalidator } from "react-router";
import { requireUser } from "~/.server/auth/guard";
import { LEAVE_WITHOUT_ASKING, LeaveGuard } from "~/components/leave-guard";
import { MarkdownEditor } from "~/components/markdown-editor";
import { fromLocalInput, toLocalInput } from "~/components/games/time";
import { HiddenFileInput } from "~/components/ui/hidden-file-input";
import { ConfirmDialog } from "~/components/teams/dialog";
import { LoadingStatus } from "~/components/teams/loading";
import { uploadWithProgress } from "~/lib/upload";
import { Alert } from "~/components/ui/alert";
import { Button, buttonClass } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { FieldErrors, TextAreaField, TextField } from "~/components/ui/field";
import { GamePermission } from "~/core/enums";
import { packBloodBonus, percentToPerMille, perMilleToPercent, unpackBloodBonus } from "~/core/game/blood-bonus";
import { changedFields } from "~/core/ui/changed-fields";
import { mergeList } from "~/core/ui/merge-list";
import { sameValues } from "~/core/ui/same-values";
import { saveOnVersion } from "~/core/ui/save-on-version";
import {
  checkGameNumbers,
  GAME_NUMBER_INPUTS,
  GAME_UPDATE_FIELDS,
  type GameInfoInput,
  type GameNumberField,
  type GameRefusalPlace,
  gameRefusalPlace,
  savedGameTimes,
  writeupHoursShown,
} from "~/core/game/info-form";
import type { DivisionInfo, GameInfo } from "~/core/schemas/game";
import type { ChallengeEditInfo } from "~/core/schemas/challenge";
import { api, apiVersioned, errorMessage, fieldError, isStaleWrite } from "~/lib/api";
import { loadEditGame } from "~/lib/edit-game";
import { useFocusInvalid } from "~/lib/focus-invalid";
import { pageTitle } from "~/lib/meta";
import { getInstance } from "~/middleware/i18next";
import type { Route } from "./+types/info";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, env, "Admin");
  return { pageTitle: getInstance(context).t("adminGames.tab.info") };
}

export async function clientLoader({ request, params, serverLoader }: Route.ClientLoaderArgs) {
  const id = Number(params.id) || 0;
  const [server, game, challenges] = await Promise.all([
    serverLoader(),
    loadEditGame(request, id),
    // For the divisions' per-challenge permissions.
    api<ChallengeEditInfo[]>(`/api/edit/games/${id}/challenges`, { signal: request.signal }),
  ]);
  return { ...server, game, challenges };
}
clientLoader.hydrate = true as const;

// No HydrateFallback: the page's title is in the server's HTML (DECISIONS.md, "Server-side titles").
export function meta({ matches, loaderData }: Route.MetaArgs) {
  return pageTitle(matches, loaderData?.pageTitle);
}

function PageLoading() {
  return <LoadingStatus />;
}

const PERMISSIONS = ["JoinGame", "RankOverall", "RequireReview", "ViewChallenge", "SubmitFlags", "GetScore", "GetBlood", "AffectDynamicScore"] as const;
/** The permissions that act per challenge (api.md §2); a division's entry for a challenge replaces its default. */
const CHALLENGE_PERMISSIONS = ["ViewChallenge", "SubmitFlags", "GetScore", "GetBlood", "AffectDynamicScore"] as const;

type ChallengeConfig = { challengeId: number; permissions: number };

interface DivisionDraft {
  key: string;
  id: number | null;
  name: string;
  inviteCode: string;
  defaultPermissions: number;
  challengeConfigs: ChallengeConfig[];
}

const divisionBody = (d: { id: number | null; name: string; inviteCode: string; defaultPermissions: number; challengeConfigs: ChallengeConfig[] }) => ({
  id: d.id,
  name: d.name,
  inviteCode: d.inviteCode,
  defaultPermissions: d.defaultPermissions,
  // In challenge order, so the same settings compare equal whatever order they were made in.
  challengeConfigs: [...d.challengeConfigs].sort((a, b) => a.challengeId - b.challengeId),
});

/** The PUT body of a game as the editor shows it (exact times; the editor compares its fields with these). */
function gameBody(game: GameInfo) {
  return {
    title: game.title,
    summary: game.summary,
    content: game.content,
    start: game.start,
    end: game.end,
    inviteCode: game.inviteCode,
    teamMemberCountLimit: game.teamMemberCountLimit,
    containerCountLimit: game.containerCountLimit,
    hidden: game.hidden,
    acceptWithoutReview: game.acceptWithoutReview,
    practiceMode: game.practiceMode,
    writeupRequired: game.writeupRequired,
    writeupDeadline: game.writeupDeadline,
    writeupNote: game.writeupNote,
    bloodBonus: game.bloodBonus,
    divisions: game.divisions.map(divisionBody),
  };
}

/**
 * A saved body as the form's fields hold it (times and numbers as their text, trimmed where the form trims):
 * a form still holding these has nothing to check or send.
 */
function fieldsShown(body: ReturnType<typeof gameBody>) {
  const bonus = unpackBloodBonus(body.bloodBonus);
  return {
    title: body.title.trim(),
    summary: body.summary,
    content: body.content,
    start: toLocalInput(body.start),
    end: toLocalInput(body.end),
    inviteCode: body.inviteCode.trim(),
    teamMemberCountLimit: String(body.teamMemberCountLimit),
    containerCountLimit: String(body.containerCountLimit),
    hidden: body.hidden,
    acceptWithoutReview: body.acceptWithoutReview,
    practiceMode: body.practiceMode,
    writeupRequired: body.writeupRequired,
    writeupHours: String(writeupHoursShown(body)),
    writeupNote: body.writeupNote,
    blood1: String(perMilleToPercent(bonus.first)),
    blood2: String(perMilleToPercent(bonus.second)),
    blood3: String(perMilleToPercent(bonus.third)),
    divisions: body.divisions,
  };
}

const toDraft = (d: DivisionInfo): DivisionDraft => ({
  key: `d${d.id}`,
  id: d.id,
  name: d.name,
  inviteCode: d.inviteCode,
  defaultPermissions: d.defaultPermissions,
  challengeConfigs: d.challengeConfigs,
});

/**
 * A division's permissions for single challenges: each challenge follows the division, or has its own
 * set of the per-challenge permissions (an entry replaces the division's default for that challenge).
 */
function ChallengePermissions({
  division,
  index,
  challenges,
  onChange,
}: {
  division: DivisionDraft;
  index: number;
  challenges: ChallengeEditInfo[];
  onChange: (configs: ChallengeConfig[]) => void;
}) {
  const { t } = useTranslation();
  const own = new Map(division.challengeConfigs.map((c) => [c.challengeId, c.permissions]));
  const set = (challengeId: number, permissions: number | null) => {
    const others = division.challengeConfigs.filter((c) => c.challengeId !== challengeId);
    onChange(permissions === null ? others : [...others, { challengeId, permissions }]);
  };
  return (
    <details className="rounded-md border border-zinc-200 px-3 py-2 dark:border-zinc-800" data-testid="division-challenge-permissions">
      <summary className="cursor-pointer text-sm font-medium">{t("adminGames.challengePermissions", { n: index + 1, count: own.size })}</summary>
      {challenges.length === 0 ? (
        <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">{t("adminGames.challengePermissionsNone")}</p>
      ) : (
        <div className="mt-2 space-y-3">
          <p className="text-xs text-zinc-600 dark:text-zinc-400">{t("adminGames.challengePermissionsHint")}</p>
          {challenges.map((c) => {
            const permissions = own.get(c.id);
            return (
              <fieldset key={c.id} className="space-y-2 border-t border-zinc-100 pt-2 dark:border-zinc-900">
                <legend className="text-sm font-medium break-words">{c.title}</legend>
                <Check
                  label={t("adminGames.followDivision")}
                  checked={permissions === undefined}
                  onChange={(follow) => set(c.id, follow ? null : division.defaultPermissions)}
                />
                {permissions !== undefined ? (
                  <PermissionChecks names={CHALLENGE_PERMISSIONS} value={permissions} onChange={(next) => set(c.id, next)} className="lg:grid-cols-3" />
                ) : null}
              </fieldset>
            );
          })}
        </div>
      )}
    </details>
  );
}

function Check({ label, checked, onChange, name }: { label: string; checked: boolean; onChange: (v: boolean) => void; name?: string }) {
  return (
    <label className="flex items-center gap-2 text-sm">
      <input type="checkbox" name={name} checked={checked} onChange={(e) => onChange(e.target.checked)} className="h-4 w-4 accent-primary-600" />
      {label}
    </label>
  );
}

/** One checkbox per permission name, each toggling its bit of `value`. */
function PermissionChecks({
  names,
  value,
  onChange,
  className,
}: {
  names: readonly (keyof typeof GamePermission & (typeof PERMISSIONS)[number])[];
  value: number;
  onChange: (value: number) => void;
  className: string;
}) {
  const { t } = useTranslation();
  return (
    <div className={`grid gap-2 sm:grid-cols-2 ${className}`}>
      {names.map((p) => {
        const bit = GamePermission[p];
        return <Check key={p} label={t(`adminGames.permission.${p}`)} checked={(value & bit) !== 0} onChange={(on) => onChange(on ? value | bit : value & ~bit)} />;
      })}
    </div>
  );
}

function DivisionsEditor({ value, onChange, challenges }: { value: DivisionDraft[]; onChange: (v: DivisionDraft[]) => void; challenges: ChallengeEditInfo[] }) {
  const { t } = useTranslation();
  const update = (key: string, patch: Partial<DivisionDraft>) => onChange(value.map((d) => (d.key === key ? { ...d, ...patch } : d)));
  return (
    <fieldset className="space-y-3">
      <legend className="text-sm font-medium">{t("adminGames.field.divisions")}</legend>
      <p className="text-xs text-zinc-600 dark:text-zinc-400">{t("adminGames.divisionsHint")}</p>
      {value.map((d, index) => (
        <div key={d.key} className="space-y-3 rounded-md border border-zinc-200 p-3 dark:border-zinc-800" data-testid="division-row">
          <div className="grid gap-3 sm:grid-cols-2">
            <TextField label={t("adminGames.divisionName", { n: index + 1 })} value={d.name} maxLength={31} onChange={(e) => update(d.key, { name: e.target.value })} />
            <TextField
              label={t("adminGames.divisionCode", { n: index + 1 })}
              value={d.inviteCode}
              maxLength={32}
              autoComplete="off"
              onChange={(e) => update(d.key, { inviteCode: e.target.value })}
            />
          </div>
          <PermissionChecks names={PERMISSIONS} value={d.defaultPermissions} onChange={(defaultPermissions) => update(d.key, { defaultPermissions })} className="lg:grid-cols-4" />
          <ChallengePermissions division={d} index={index} challenges={challenges} onChange={(challengeConfigs) => update(d.key, { challengeConfigs })} />
          <div className="flex justify-end">
            <Button variant="ghost" className="px-2 py-1 text-red-700 dark:text-red-400" onClick={() => onChange(value.filter((x) => x.key !== d.key))}>
              {t("adminGames.removeDivision")}
            </Button>
          </div>
        </div>
      ))}
      <Button
        variant="secondary"
        onClick={() => onChange([...value, { key: `n${Date.now()}${value.length}`, id: null, name: "", inviteCode: "", defaultPermissions: GamePermission.All, challengeConfigs: [] }])}
      >
        {t("adminGames.addDivision")}
      </Button>
    </fieldset>
  );
}

function PosterUpload({ game, onUploaded }: { game: GameInfo; onUploaded: () => void }) {
  const { t } = useTranslation();
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [removing, setRemoving] = useState<"asking" | "busy" | null>(null);
  const [removeError, setRemoveError] = useState<string | null>(null);

  async function remove() {
    setRemoving("busy");
    setRemoveError(null);
    try {
      await api(`/api/edit/games/${game.id}/poster`, { method: "DELETE" });
      setRemoving(null);
      onUploaded();
    } catch (err) {
      setRemoveError(errorMessage(err));
      setRemoving("asking");
    }
  }

  async function upload(input: HTMLInputElement) {
    const file = input.files?.[0];
    if (!file) return;
    setError(null);
    if (file.size > 3 * 1024 * 1024) {
      setError(t("adminGames.posterTooLarge"));
      input.value = "";
      return;
    }
    setProgress(0);
    try {
      await uploadWithProgress<string>(`/api/edit/games/${game.id}/poster`, file, setProgress);
      onUploaded();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setProgress(null);
      input.value = "";
    }
  }

  return (
    <div className="space-y-2">
      <p className="text-sm font-medium">{t("adminGames.field.poster")}</p>
      {game.poster ? <img src={game.poster} alt={t("adminGames.posterAlt")} className="max-h-48 rounded-md object-cover" /> : <p className="text-sm text-zinc-600 dark:text-zinc-400">{t("adminGames.noPoster")}</p>}
      <div className="flex flex-wrap gap-2">
        <label className={buttonClass("secondary", "cursor-pointer")}>
          {t("adminGames.uploadPoster")}
          <HiddenFileInput accept="image/png,image/jpeg,image/gif,image/webp" busy={progress !== null} onFile={(_, input) => void upload(input)} />
        </label>
        {game.poster ? (
          <Button variant="danger" disabled={progress !== null} onClick={() => setRemoving("asking")}>
            {t("adminGames.removePoster")}
          </Button>
        ) : null}
      </div>
      <ConfirmDialog
        open={removing !== null}
        title={t("adminGames.removePoster")}
        message={t("adminGames.removePosterConfirm")}
        confirmLabel={t("adminGames.removePoster")}
        busy={removing === "busy"}
        error={removeError}
        onConfirm={() => void remove()}
        onCancel={() => {
          setRemoving(null);
          setRemoveError(null);
        }}
      />
      <p className="text-xs text-zinc-600 dark:text-zinc-400">{t("adminGames.posterHint")}</p>
      {progress !== null ? (
        <div className="space-y-1">
          <progress className="h-2 w-full accent-primary-600" max={100} value={Math.round(progress * 100)} aria-label={t("teams.uploading")} />
          <p className="text-xs" aria-live="polite">
            {t("teams.uploadProgress", { percent: Math.round(progress * 100) })}
          </p>
        </div>
      ) : null}
      {error ? <Alert tone="error">{error}</Alert> : null}
    </div>
  );
}

export default function AdminGameInfoPage({ loaderData }: Route.ComponentProps) {
  // Server-rendered data carries no API data; the browser loader fills it in.
  if (!("game" in loaderData)) return <PageLoading />;
  return <AdminGameInfoPageView loaderData={loaderData} />;
}

/** Where a refusal stands (`at`, with the inputs whose change takes it away), and its message. */
type InfoRefusal = GameRefusalPlace & { message: string };

/** The label of each checked number field, to name it in the form's error. */
const NUMBER_LABELS: Record<GameNumberField, string> = {
  memberLimit: "adminGames.field.memberLimit",
  containerLimit: "adminGames.field.containerLimit",
  writeupHours: "adminGames.field.writeupHours",
  bloodFirst: "adminGames.blood.first",
  bloodSecond: "adminGames.blood.second",
  bloodThird: "adminGames.blood.third",
};

function AdminGameInfoPageView({ loaderData }: { loaderData: Awaited<ReturnType<typeof clientLoader>> }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { revalidate } = useRevalidator();
  const { game } = loaderData;
  const bonus = unpackBloodBonus(game.bloodBonus);
  const [divisions, setDivisions] = useState<DivisionDraft[]>(() => game.divisions.map(toDraft));
  // What the form shows as saved: the game as opened, then each body this form saved. Not the record as
  // reloaded: another tab's change of a field this form still shows the old value of is not this form's
  // change, and must not be sent back.
  const [shown, setShown] = useState(() => gameBody(game));
  const [flags, setFlags] = useState({
    hidden: game.hidden,
    acceptWithoutReview: game.acceptWithoutReview,
    practiceMode: game.practiceMode,
    writeupRequired: game.writeupRequired,
  });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // A refusal about one field stands at it (a new object per refusal: it shows again at each; FieldErrors).
  const [fieldErr, setFieldErr] = useState<InfoRefusal | null>(null);
  const refuseAt = (at: GameInfoInput, message: string) => setFieldErr({ at, message, clearedBy: [at] });
  const errAt = (input: GameInfoInput) => (fieldErr?.at === input ? fieldErr.message : null);
  const bloodErrorId = useId();
  const bloodRefused = fieldErr?.at === "bloodBonus";
  const bloodMarks = bloodRefused ? { "aria-invalid": true, "aria-describedby": bloodErrorId, className: "border-red-500 dark:border-red-400" } : {};
  const [saved, setSaved] = useState(false);
  const [noChange, setNoChange] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [deleteError, setDeleteError] = useState<string | null>(null);

  /** The form's fields as it shows them (text as typed, the flags and divisions as edited). */
  function formFields(form: FormData) {
    const text = (name: string) => String(form.get(name) ?? "");
    return {
      title: text("title").trim(),
      summary: text("summary"),
      content: text("content"),
      start: text("start"),
      end: text("end"),
      inviteCode: text("inviteCode").trim(),
      teamMemberCountLimit: text("teamMemberCountLimit").trim(),
      containerCountLimit: text("containerCountLimit").trim(),
      ...flags,
      writeupHours: text("writeupHours").trim(),
      writeupNote: text("writeupNote"),
      blood1: text("blood1").trim(),
      blood2: text("blood2").trim(),
      blood3: text("blood3").trim(),
      divisions: divisions.map((d) => divisionBody({ ...d, name: d.name.trim(), inviteCode: d.inviteCode.trim() })),
    };
  }

  // Edits not saved yet (the form as it showed when opened or last saved): leaving the page asks first.
  const formRef = useRef<HTMLFormElement>(null);
  const [baseline, setBaseline] = useState<ReturnType<typeof formFields> | null>(null);
  const [rebase, setRebase] = useState(0);
  const [dirty, setDirty] = useState(false);
  const readForm = () => (formRef.current ? formFields(new FormData(formRef.current)) : null);
  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- read from the form's DOM once it shows the values
    setBaseline(readForm());
    // eslint-disable-next-line react-hooks/exhaustive-deps -- when opened, and after each save has rendered
  }, [rebase]);
  const checkDirty = () => {
    const now = readForm();
    setDirty(baseline !== null && now !== null && !sameValues(now, baseline));
  };
  useFocusInvalid(formRef, fieldErr);
  /** A change of an input the refusal's value was made from takes the refusal away. */
  const onFieldChange = (event: FormEvent<HTMLFormElement>) => {
    checkDirty();
    const name = (event.target as HTMLInputElement).name;
    if (fieldErr?.clearedBy.some((input) => input === name)) setFieldErr(null);
  };
  // The flags and divisions are state, not form events.
  // eslint-disable-next-line react-hooks/set-state-in-effect, react-hooks/exhaustive-deps -- see above
  useEffect(checkDirty, [flags, divisions, baseline]);

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? "");
    const title = text("title").trim();
    const start = fromLocalInput(text("start"));
    const end = fromLocalInput(text("end"));
    setSaved(false);
    setNoChange(false);
    setFieldErr(null);
    // The fields as they showed what is saved: nothing is checked (a stored value the checks would refuse is
    // not the admin's doing) or sent.
    const fields = formFields(form);
    const divisionsSent = fields.divisions;
    if (sameValues(fields, fieldsShown(shown))) {
      setError(null);
      setNoChange(true);
      setRebase((n) => n + 1);
      return;
    }
    if (!title || start === null || end === null) {
      setError(null);
      refuseAt(!title ? "title" : start === null ? "start" : "end", t("adminGames.titleTimeRequired"));
      return;
    }
    const checked = checkGameNumbers({
      memberLimit: text("teamMemberCountLimit"),
      containerLimit: text("containerCountLimit"),
      writeupHours: text("writeupHours"),
      bloodFirst: text("blood1"),
      bloodSecond: text("blood2"),
      bloodThird: text("blood3"),
    });
    if ("problem" in checked) {
      const { key, field, min, max, decimals } = checked.problem;
      setError(null);
      refuseAt(GAME_NUMBER_INPUTS[field], t(key, { field: t(NUMBER_LABELS[field]), min, max, count: decimals }));
      return;
    }
    const numbers = checked.values;
    const times = savedGameTimes(shown, {
      start,
      startChanged: text("start") !== toLocalInput(shown.start),
      end,
      endChanged: text("end") !== toLocalInput(shown.end),
      writeupHours: numbers.writeupHours,
    });
    const body = {
      title,
      summary: text("summary"),
      content: text("content"),
      start: times.start,
      end: times.end,
      inviteCode: text("inviteCode").trim(),
      teamMemberCountLimit: numbers.memberLimit,
      containerCountLimit: numbers.containerLimit,
      ...flags,
      writeupDeadline: times.writeupDeadline,
      writeupNote: text("writeupNote"),
      bloodBonus: packBloodBonus({
        first: percentToPerMille(numbers.bloodFirst),
        second: percentToPerMille(numbers.bloodSecond),
        third: percentToPerMille(numbers.bloodThird),
      }),
      divisions: divisionsSent,
    };
    // Typed differently, the same values (a limit of "05"): no change either.
    if (sameValues(body, shown)) {
      setError(null);
      setNoChange(true);
      setRebase((n) => n + 1);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      // Only what this form changed since it showed `shown`: another tab's saves of other fields stay. The
      // divisions go as a whole list (a missing one is deleted): this tab's changes are merged onto the list
      // as it is now, so a division another tab added meanwhile is kept, and written only over the version
      // merged onto (If-Match): a save landing between the read and the write is merged in too.
      const changed = changedFields(shown, body);
      const mine = changed.divisions;
      const url = `/api/edit/games/${game.id}`;
      const updated = mine
        ? await saveOnVersion({
            read: () => apiVersioned<GameInfo>(url),
            write: (current, etag) =>
              api<GameInfo>(url, { method: "PUT", body: { ...changed, divisions: mergeList(shown.divisions, mine, current.divisions.map(divisionBody)) }, ifMatch: etag }),
            isStale: isStaleWrite,
          })
        : await api<GameInfo>(url, { method: "PUT", body: changed });
      setDivisions(updated.divisions.map(toDraft));
      setShown({ ...body, divisions: updated.divisions.map(divisionBody) });
      setSaved(true);
      setRebase((n) => n + 1);
      void revalidate();
    } catch (err) {
      const refused = fieldError(err, GAME_UPDATE_FIELDS);
      if (refused) setFieldErr({ ...gameRefusalPlace(refused.field), message: refused.message });
      else setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  async function remove() {
    setDeleteError(null);
    setBusy(true);
    try {
      await api(`/api/edit/games/${game.id}`, { method: "DELETE" });
      // In place of the deleted game's entry: Back does not lead to a page that is gone.
      await navigate("/admin/games", { replace: true, state: LEAVE_WITHOUT_ASKING });
    } catch (err) {
      setDeleteError(errorMessage(err));
      setBusy(false);
    }
  }

  const hoursAfterEnd = writeupHoursShown(game);

  return (
    <div className="grid gap-6 lg:grid-cols-3">
      <LeaveGuard dirty={dirty} />
      <form key={`${game.id}`} ref={formRef} className="space-y-6 lg:col-span-2" noValidate onInput={onFieldChange} onChange={onFieldChange} onSubmit={(e) => void save(e)}>
        <FieldErrors refusal={fieldErr}>
          <Card className="space-y-4">
            <TextField label={t("adminGames.field.title")} name="title" defaultValue={game.title} maxLength={64} required error={errAt("title")} />
            <TextField label={t("adminGames.field.summary")} name="summary" defaultValue={game.summary} maxLength={1024} error={errAt("summary")} />
            <MarkdownEditor label={t("adminGames.field.content")} name="content" defaultValue={game.content} rows={8} description={t("adminGames.markdownHint")} error={errAt("content")} />
            <div className="grid gap-4 sm:grid-cols-2">
              <TextField label={t("adminGames.field.start")} name="start" type="datetime-local" defaultValue={toLocalInput(game.start)} required error={errAt("start")} />
              <TextField label={t("adminGames.field.end")} name="end" type="datetime-local" defaultValue={toLocalInput(game.end)} required error={errAt("end")} />
            </div>
            <div className="grid gap-4 sm:grid-cols-3">
              <TextField label={t("adminGames.field.inviteCode")} name="inviteCode" defaultValue={game.inviteCode} maxLength={32} autoComplete="off" description={t("adminGames.inviteCodeHint")} error={errAt("inviteCode")} />
              <TextField label={t("adminGames.field.memberLimit")} name="teamMemberCountLimit" type="number" min={0} defaultValue={game.teamMemberCountLimit} description={t("adminGames.zeroUnlimited")} error={errAt("teamMemberCountLimit")} />
              <TextField label={t("adminGames.field.containerLimit")} name="containerCountLimit" type="number" min={0} defaultValue={game.containerCountLimit} description={t("adminGames.zeroUnlimited")} error={errAt("containerCountLimit")} />
            </div>
            <div className="grid gap-2 sm:grid-cols-2">
              <Check label={t("adminGames.field.hidden")} checked={flags.hidden} onChange={(v) => setFlags({ ...flags, hidden: v })} />
              <Check label={t("adminGames.field.acceptWithoutReview")} checked={flags.acceptWithoutReview} onChange={(v) => setFlags({ ...flags, acceptWithoutReview: v })} />
              <Check label={t("adminGames.field.practiceMode")} checked={flags.practiceMode} onChange={(v) => setFlags({ ...flags, practiceMode: v })} />
              <Check label={t("adminGames.field.writeupRequired")} checked={flags.writeupRequired} onChange={(v) => setFlags({ ...flags, writeupRequired: v })} />
            </div>
            <div className="grid gap-4 sm:grid-cols-3">
              <TextField label={t("adminGames.field.writeupHours")} name="writeupHours" type="number" min={0} step="any" defaultValue={hoursAfterEnd} error={errAt("writeupHours")} />
              <div className="sm:col-span-2">
                <TextAreaField label={t("adminGames.field.writeupNote")} name="writeupNote" defaultValue={game.writeupNote} rows={2} error={errAt("writeupNote")} />
              </div>
            </div>
            <fieldset className="space-y-2">
              <legend className="text-sm font-medium">{t("adminGames.field.bloodBonus")}</legend>
              <div className="grid gap-4 sm:grid-cols-3">
                <TextField label={t("adminGames.blood.first")} name="blood1" type="number" min={0} max={100} step={0.1} defaultValue={perMilleToPercent(bonus.first)} error={errAt("blood1")} {...bloodMarks} />
                <TextField label={t("adminGames.blood.second")} name="blood2" type="number" min={0} max={100} step={0.1} defaultValue={perMilleToPercent(bonus.second)} error={errAt("blood2")} {...bloodMarks} />
                <TextField label={t("adminGames.blood.third")} name="blood3" type="number" min={0} max={100} step={0.1} defaultValue={perMilleToPercent(bonus.third)} error={errAt("blood3")} {...bloodMarks} />
              </div>
              {bloodRefused ? (
                <p id={bloodErrorId} className="text-sm text-red-700 dark:text-red-400">
                  {fieldErr.message}
                </p>
              ) : null}
              <p className="text-xs text-zinc-600 dark:text-zinc-400">{t("adminGames.bloodHint")}</p>
            </fieldset>
          </Card>
        </FieldErrors>
        <Card>
          <DivisionsEditor value={divisions} onChange={setDivisions} challenges={loaderData.challenges} />
        </Card>
        {error ? <Alert tone="error">{error}</Alert> : null}
        {saved ? <Alert tone="success">{t("adminGames.saved")}</Alert> : null}
        {noChange ? <Alert tone="info">{t("common.noChange")}</Alert> : null}
        <div className="flex justify-end">
          <Button type="submit" disabled={busy}>
            {busy ? t("common.saving") : t("adminGames.save")}
          </Button>
        </div>
      </form>
      <div className="space-y-6">
        <Card>
          <PosterUpload game={game} onUploaded={() => void revalidate()} />
        </Card>
        <Card className="space-y-3">
          <TextField label={t("adminGames.field.publicKey")} value={game.publicKey} readOnly className="font-mono text-xs" />
          <TextField label={t("adminGames.field.teamHashSalt")} value={game.teamHashSalt} readOnly className="font-mono text-xs" description={t("adminGames.keyHint")} />
        </Card>
        <Card className="space-y-3">
          <h2 className="font-semibold">{t("adminGames.dangerZone")}</h2>
          <Button variant="danger" onClick={() => setDeleting(true)}>
            {t("adminGames.delete")}
          </Button>
        </Card>
      </div>
      <ConfirmDialog
        open={deleting}
        title={t("adminGames.deleteTitle")}
        message={t("adminGames.deleteConfirm", { game: game.title })}
        confirmLabel={t("adminGames.delete")}
        busy={busy}
        error={deleteError}
        onConfirm={() => void remove()}
        onCancel={() => setDeleting(false)}
      />
    </div>
  );
}
