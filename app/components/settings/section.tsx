import type { FormEvent, ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";

/** A card's save: under way, refused, done, or not sent because nothing was changed (`noChange`). */
export type SaveState = { busy: boolean; error: string | null; saved: boolean; noChange: boolean };
export const idleSave: SaveState = { busy: false, error: null, saved: false, noChange: false };

/** A settings card with its own form, message and Save button. */
export function SettingsSection({
  id,
  title,
  state,
  onSubmit,
  children,
}: {
  id: string;
  title: string;
  state: SaveState;
  onSubmit: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Card aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} className="mb-4 text-lg font-semibold">
        {title}
      </h2>
      <form
        className="space-y-4"
        noValidate
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          onSubmit();
        }}
      >
        {children}
        {state.error ? <Alert tone="error">{state.error}</Alert> : null}
        {state.saved ? <Alert tone="success">{t("settings.saved")}</Alert> : null}
        {state.noChange ? <Alert tone="info">{t("common.noChange")}</Alert> : null}
        <div className="flex justify-end">
          <Button type="submit" disabled={state.busy}>
            {state.busy ? t("settings.saving") : t("settings.save")}
          </Button>
        </div>
      </form>
    </Card>
  );
}

export function CheckboxField({ label, checked, onChange }: { label: string; checked: boolean; onChange: (value: boolean) => void }) {
  return (
    <label className="flex items-center gap-2 text-sm">
      <input type="checkbox" checked={checked} onChange={(event) => onChange(event.target.checked)} className="size-4 accent-primary-600" />
      {label}
    </label>
  );
}
