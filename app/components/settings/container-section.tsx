import { useState } from "react";
import { useTranslation } from "react-i18next";
import { TextField } from "~/components/ui/field";
import { CheckboxField, type SaveState, SettingsSection } from "./section";
import type { AdminSettings } from "./types";

type Policy = AdminSettings["containerPolicy"];

/** Numbers are sent as typed; the server validates the ranges (api.md §3) and answers with a localised message. */
export function ContainerSection({ settings, state, onSave }: { settings: Policy; state: SaveState; onSave: (patch: Policy) => void }) {
  const { t } = useTranslation();
  const [lifetime, setLifetime] = useState(String(settings.defaultLifetime));
  const [extension, setExtension] = useState(String(settings.extensionDuration));
  const [window, setWindow] = useState(String(settings.renewalWindow));
  const [autoDestroy, setAutoDestroy] = useState(settings.autoDestroyOnLimitReached);
  const [envNames, setEnvNames] = useState(settings.extraFlagEnvNames.join(", "));
  const num = (s: string) => (s.trim() === "" ? Number.NaN : Number(s));
  return (
    <SettingsSection
      id="settings-container"
      title={t("settings.container.heading")}
      state={state}
      onSubmit={() =>
        onSave({
          defaultLifetime: num(lifetime),
          extensionDuration: num(extension),
          renewalWindow: num(window),
          autoDestroyOnLimitReached: autoDestroy,
          extraFlagEnvNames: envNames.split(/[,\s]+/).map((s) => s.trim()).filter(Boolean),
        })
      }
    >
      <div className="grid gap-4 md:grid-cols-3">
        <TextField label={t("settings.container.defaultLifetime")} name="defaultLifetime" type="number" min={1} max={7200} value={lifetime} onChange={(e) => setLifetime(e.target.value)} />
        <TextField label={t("settings.container.extension")} name="extensionDuration" type="number" min={1} max={7200} value={extension} onChange={(e) => setExtension(e.target.value)} />
        <TextField label={t("settings.container.renewalWindow")} name="renewalWindow" type="number" min={1} max={360} value={window} onChange={(e) => setWindow(e.target.value)} />
      </div>
      <CheckboxField label={t("settings.container.autoDestroy")} checked={autoDestroy} onChange={setAutoDestroy} />
      <TextField
        label={t("settings.container.extraFlagEnv")}
        name="extraFlagEnvNames"
        spellCheck={false}
        description={t("settings.container.extraFlagEnvHint")}
        value={envNames}
        onChange={(e) => setEnvNames(e.target.value)}
      />
    </SettingsSection>
  );
}
