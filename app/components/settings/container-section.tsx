import { useState } from "react";
import { useTranslation } from "react-i18next";
import { FieldErrors, TextField } from "~/components/ui/field";
import { FLAG_ENV_NAME } from "~/core/agent-protocol";
import { type ContainerMinutesField, checkContainerMinutes, type MinutesProblem } from "~/core/ui/container-policy-form";
import { sameValues } from "~/core/ui/same-values";
import { CheckboxField, type SaveState, SettingsSection } from "./section";
import type { AdminSettings } from "./types";

type Policy = AdminSettings["containerPolicy"];

const parseEnvNames = (text: string) => text.split(/[,\s]+/).map((s) => s.trim()).filter(Boolean);

/** What the card sends of a policy. */
const policyPatch = (policy: Policy): Policy => ({
  defaultLifetime: policy.defaultLifetime,
  extensionDuration: policy.extensionDuration,
  renewalWindow: policy.renewalWindow,
  autoDestroyOnLimitReached: policy.autoDestroyOnLimitReached,
  extraFlagEnvNames: policy.extraFlagEnvNames,
});

/** The policy as the card's fields hold it (the minutes as their text). */
const policyFields = (policy: Policy) => ({
  ...policyPatch(policy),
  defaultLifetime: String(policy.defaultLifetime),
  extensionDuration: String(policy.extensionDuration),
  renewalWindow: String(policy.renewalWindow),
});

/** The minutes are checked here, each at its field (an empty one would be sent as "unchanged"); the server checks them again. */
export function ContainerSection({
  settings,
  state,
  onSave,
  onNoChange,
  onRefused,
}: {
  settings: Policy;
  state: SaveState;
  onSave: (patch: Policy) => void;
  onNoChange: () => void;
  /** The card refused the typed values itself: the card's message of an earlier save no longer applies. */
  onRefused: () => void;
}) {
  const { t } = useTranslation();
  const [lifetime, setLifetime] = useState(String(settings.defaultLifetime));
  const [extension, setExtension] = useState(String(settings.extensionDuration));
  const [window, setWindow] = useState(String(settings.renewalWindow));
  const [autoDestroy, setAutoDestroy] = useState(settings.autoDestroyOnLimitReached);
  const [envNames, setEnvNames] = useState(settings.extraFlagEnvNames.join(", "));
  const [problems, setProblems] = useState<Partial<Record<ContainerMinutesField, MinutesProblem>>>({});
  const problem = (field: ContainerMinutesField) => {
    const range = problems[field];
    return range ? t("settings.container.minutesRange", { min: range.min, max: range.max }) : undefined;
  };
  return (
    <SettingsSection
      id="settings-container"
      title={t("settings.container.heading")}
      state={state}
      onSubmit={() => {
        const minutes = { defaultLifetime: lifetime.trim(), extensionDuration: extension.trim(), renewalWindow: window.trim() };
        const rest = { autoDestroyOnLimitReached: autoDestroy, extraFlagEnvNames: parseEnvNames(envNames) };
        // Fields as loaded are neither checked (a stored value out of today's range is not the admin's doing)
        // nor sent; the same values typed differently ("060") are not sent either.
        if (sameValues({ ...minutes, ...rest }, policyFields(settings))) {
          setProblems({});
          onNoChange();
          return;
        }
        const checked = checkContainerMinutes(minutes);
        if ("problems" in checked) {
          setProblems(checked.problems);
          onRefused();
          return;
        }
        setProblems({});
        const patch = { ...checked.values, ...rest };
        if (sameValues(patch, policyPatch(settings))) onNoChange();
        else onSave(patch);
      }}
    >
      <div className="grid gap-4 md:grid-cols-3">
        <FieldErrors refusal={problems}>
          <TextField label={t("settings.container.defaultLifetime")} name="defaultLifetime" type="number" min={1} max={7200} error={problem("defaultLifetime")} value={lifetime} onChange={(e) => setLifetime(e.target.value)} />
          <TextField label={t("settings.container.extension")} name="extensionDuration" type="number" min={1} max={7200} error={problem("extensionDuration")} value={extension} onChange={(e) => setExtension(e.target.value)} />
          <TextField label={t("settings.container.renewalWindow")} name="renewalWindow" type="number" min={1} max={360} error={problem("renewalWindow")} value={window} onChange={(e) => setWindow(e.target.value)} />
        </FieldErrors>
      </div>
      <CheckboxField label={t("settings.container.autoDestroy")} checked={autoDestroy} onChange={setAutoDestroy} />
      <TextField
        label={t("settings.container.extraFlagEnv")}
        name="extraFlagEnvNames"
        spellCheck={false}
        description={t("settings.container.extraFlagEnvHint", { name: FLAG_ENV_NAME })}
        value={envNames}
        onChange={(e) => setEnvNames(e.target.value)}
      />
    </SettingsSection>
  );
}
