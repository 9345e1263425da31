import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "~/components/ui/alert";
import { TextField } from "~/components/ui/field";
import { sameValues } from "~/core/ui/same-values";
import { CheckboxField, type SaveState, SettingsSection } from "./section";
import type { AdminSettings } from "./types";

type Policy = AdminSettings["accountPolicy"];

export function AccountSection({
  settings,
  state,
  mailEnabled,
  captchaEnabled,
  onSave,
  onNoChange,
}: {
  settings: Policy;
  state: SaveState;
  mailEnabled: boolean;
  /** Whether the server has a CAPTCHA provider and its keys (without them "Use CAPTCHA" changes nothing). */
  captchaEnabled: boolean;
  onSave: (patch: Policy) => void;
  onNoChange: () => void;
}) {
  const { t } = useTranslation();
  const [policy, setPolicy] = useState(settings);
  const set = <K extends keyof Policy>(key: K) => (value: Policy[K]) => setPolicy((p) => ({ ...p, [key]: value }));
  return (
    <SettingsSection id="settings-account" title={t("settings.account.heading")} state={state} onSubmit={() => (sameValues(policy, settings) ? onNoChange() : onSave(policy))}>
      <div className="grid gap-3 md:grid-cols-2">
        <CheckboxField label={t("settings.account.allowRegister")} checked={policy.allowRegister} onChange={set("allowRegister")} />
        <CheckboxField label={t("settings.account.emailConfirmation")} checked={policy.emailConfirmationRequired} onChange={set("emailConfirmationRequired")} />
        <CheckboxField label={t("settings.account.activeOnRegister")} checked={policy.activeOnRegister} onChange={set("activeOnRegister")} />
        <CheckboxField label={t("settings.account.useCaptcha")} checked={policy.useCaptcha} onChange={set("useCaptcha")} />
      </div>
      {policy.emailConfirmationRequired && !mailEnabled ? (
        <Alert tone="error" title={t("settings.account.noMailTitle")}>
          {t("settings.account.noMail")}
        </Alert>
      ) : null}
      {policy.useCaptcha && !captchaEnabled ? (
        <Alert tone="error" title={t("settings.account.noCaptchaTitle")}>
          {t("settings.account.noCaptcha")}
        </Alert>
      ) : null}
      <TextField
        label={t("settings.account.domains")}
        name="emailDomainList"
        maxLength={1024}
        description={t("settings.account.domainsHint")}
        value={policy.emailDomainList}
        onChange={(e) => set("emailDomainList")(e.target.value)}
      />
    </SettingsSection>
  );
}
