import { type CSSProperties, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { MarkdownEditor } from "~/components/markdown-editor";
import { Alert } from "~/components/ui/alert";
import { Button, buttonClass } from "~/components/ui/button";
import { FieldErrors, TextField } from "~/components/ui/field";
import { HiddenFileInput } from "~/components/ui/hidden-file-input";
import { brandColour, brandCssVariables, paletteFor } from "~/core/colour";
import { normalizeCustomTheme } from "~/core/schemas/config";
import { checkPlatformFields } from "~/core/ui/platform-form";
import { sameValues } from "~/core/ui/same-values";
import { api, errorMessage } from "~/lib/api";
import { type SaveState, SettingsSection } from "./section";
import type { AdminSettings } from "./types";
import { postFormWithProgress } from "~/lib/upload";

type Global = AdminSettings["globalConfig"];

/** What the card sends of the platform's texts (the colour trimmed). */
const platformPatch = (values: Pick<Global, "title" | "slogan" | "description" | "footerInfo" | "customTheme">) => ({
  title: values.title,
  slogan: values.slogan,
  description: values.description,
  footerInfo: values.footerInfo,
  customTheme: values.customTheme.trim(),
});

/** The colour's palette as swatches, plus a sample button drawn with the same variables as the site. */
function PalettePreview({ colour }: { colour: string }) {
  const { t } = useTranslation();
  const effective = brandColour(normalizeCustomTheme(colour));
  const vars = (brandCssVariables(effective) ?? {}) as CSSProperties;
  return (
    <div className="space-y-2" style={vars}>
      <p className="text-sm font-medium text-zinc-800 dark:text-zinc-200">{t("settings.platform.palette")}</p>
      <ul className="flex flex-wrap gap-1" aria-label={t("settings.platform.palette")}>
        {paletteFor(effective).map((p) => (
          <li key={p.shade} className="flex flex-col items-center gap-1 text-[0.65rem] text-zinc-600 dark:text-zinc-400">
            <span className="block size-9 rounded border border-zinc-200 dark:border-zinc-700" style={{ background: p.hex }} title={p.hex} />
            {p.shade}
          </li>
        ))}
      </ul>
      <span className="inline-flex rounded-md bg-primary-600 px-4 py-2 text-sm font-medium text-on-primary-600 dark:bg-primary-500 dark:text-on-primary-500">
        {t("settings.platform.sampleButton")}
      </span>
    </div>
  );
}

function LogoField({ logoHash, onChanged }: { logoHash: string | null; onChanged: () => void }) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [message, setMessage] = useState<{ tone: "error" | "success"; text: string } | null>(null);
  const resetting = useRef(false);
  const [busyReset, setBusyReset] = useState(false);

  async function upload(file: File) {
    setMessage(null);
    setProgress(0);
    const form = new FormData();
    form.append("file", file);
    try {
      await postFormWithProgress<string>("/api/admin/config/logo", form, setProgress);
      setMessage({ tone: "success", text: t("settings.platform.logoUploaded") });
      onChanged();
    } catch (error) {
      setMessage({ tone: "error", text: errorMessage(error) });
    } finally {
      setProgress(null);
      if (input.current) input.current.value = "";
    }
  }

  async function reset() {
    // One reset per click, however fast the second click comes.
    if (resetting.current) return;
    resetting.current = true;
    setBusyReset(true);
    setMessage(null);
    try {
      await api("/api/admin/config/logo", { method: "DELETE" });
      setMessage({ tone: "success", text: t("settings.platform.logoReset") });
      onChanged();
    } catch (error) {
      setMessage({ tone: "error", text: errorMessage(error) });
    } finally {
      resetting.current = false;
      setBusyReset(false);
    }
  }

  return (
    <div className="space-y-2">
      <p className="text-sm font-medium text-zinc-800 dark:text-zinc-200">{t("settings.platform.logo")}</p>
      <div className="flex flex-wrap items-center gap-3">
        {logoHash ? (
          <img src={`/assets/${logoHash}/logo`} alt={t("settings.platform.logo")} className="size-12 rounded border border-zinc-200 object-contain dark:border-zinc-700" />
        ) : (
          <span className="text-sm text-zinc-600 dark:text-zinc-400">{t("settings.platform.noLogo")}</span>
        )}
        {/* The logo is sent as soon as it is chosen, as the avatars are: the button is the whole chooser. */}
        <label htmlFor="settings-logo" className={buttonClass("secondary", progress !== null ? "pointer-events-none opacity-60" : "cursor-pointer")}>
          {t("settings.platform.uploadLogo")}
        </label>
        <HiddenFileInput id="settings-logo" ref={input} accept="image/*" busy={progress !== null} onFile={(file) => void upload(file)} />
        {logoHash ? (
          <Button variant="secondary" disabled={busyReset} onClick={() => void reset()}>
            {t("settings.platform.resetLogo")}
          </Button>
        ) : null}
      </div>
      {progress !== null ? <progress max={1} value={progress} className="w-48" aria-label={t("settings.platform.uploadLogo")} /> : null}
      <p className="text-xs text-zinc-600 dark:text-zinc-400">{t("settings.platform.logoHint")}</p>
      {message ? <Alert tone={message.tone}>{message.text}</Alert> : null}
    </div>
  );
}

export function PlatformSection({
  settings,
  state,
  onSave,
  onNoChange,
  onRefused,
  onLogoChanged,
}: {
  settings: Global;
  state: SaveState;
  onSave: (patch: Partial<Global>) => void;
  onNoChange: () => void;
  /** The card refused the typed values itself: the card's message of an earlier save no longer applies. */
  onRefused: () => void;
  onLogoChanged: () => void;
}) {
  const { t } = useTranslation();
  const [title, setTitle] = useState(settings.title);
  const [slogan, setSlogan] = useState(settings.slogan);
  const [description, setDescription] = useState(settings.description);
  const [footerInfo, setFooterInfo] = useState(settings.footerInfo);
  const [customTheme, setCustomTheme] = useState(settings.customTheme);
  // A new object per refusal: the fields' errors show again at each (app/components/ui/field.tsx, FieldErrors).
  const [refusal, setRefusal] = useState<{ title?: string; customTheme?: string } | null>(null);

  return (
    <SettingsSection
      id="settings-platform"
      title={t("settings.platform.heading")}
      state={state}
      onSubmit={() => {
        const patch = platformPatch({ title, slogan, description, footerInfo, customTheme });
        if (sameValues(patch, platformPatch(settings))) {
          setRefusal(null);
          onNoChange();
          return;
        }
        // Each problem at its field: the server clears a colour it cannot use (and would say "Settings saved"
        // over it), and names an empty platform name "Title" under the card.
        const problems = checkPlatformFields({ title, customTheme });
        if (problems.title || problems.customTheme) {
          setRefusal({
            title: problems.title ? t("settings.platform.nameRequired") : undefined,
            customTheme: problems.customTheme ? t("settings.platform.colourInvalid") : undefined,
          });
          onRefused();
          return;
        }
        setRefusal(null);
        onSave(patch);
      }}
    >
      <FieldErrors refusal={refusal}>
        <div className="grid gap-4 md:grid-cols-2">
          <TextField label={t("settings.platform.name")} name="title" required maxLength={64} error={refusal?.title} value={title} onChange={(e) => setTitle(e.target.value)} />
          <TextField label={t("settings.platform.slogan")} name="slogan" maxLength={256} value={slogan} onChange={(e) => setSlogan(e.target.value)} />
        </div>
      </FieldErrors>
      <MarkdownEditor label={t("settings.platform.description")} name="description" value={description} onChange={setDescription} rows={8} maxLength={65536} />
      <MarkdownEditor label={t("settings.platform.footer")} name="footerInfo" value={footerInfo} onChange={setFooterInfo} rows={3} maxLength={4096} />
      <LogoField logoHash={settings.logoHash} onChanged={onLogoChanged} />
      <div className="grid gap-4 md:grid-cols-2">
        <div className="flex items-end gap-2">
          <div className="flex-1">
            <FieldErrors refusal={refusal}>
              <TextField
                label={t("settings.platform.colour")}
                name="customTheme"
                maxLength={32}
                spellCheck={false}
                placeholder="#4f6df5"
                description={t("settings.platform.colourHint")}
                error={refusal?.customTheme}
                value={customTheme}
                onChange={(e) => setCustomTheme(e.target.value)}
              />
            </FieldErrors>
          </div>
          <input
            type="color"
            aria-label={t("settings.platform.colourPicker")}
            value={brandColour(normalizeCustomTheme(customTheme))}
            onChange={(e) => {
              // A colour picked here is a valid one: the field's refusal no longer speaks of it.
              setCustomTheme(e.target.value);
              // The name's error stays only while the name is still empty.
              setRefusal((r) => (r?.customTheme ? { title: title.trim() === "" ? r.title : undefined } : r));
            }}
            className="mb-6 h-9 w-12 cursor-pointer rounded border border-zinc-300 bg-transparent dark:border-zinc-700"
          />
        </div>
        <PalettePreview colour={customTheme} />
      </div>
    </SettingsSection>
  );
}
