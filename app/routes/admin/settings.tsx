import { env } from "cloudflare:workers";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useRevalidator } from "react-router";
import { requireUser } from "~/.server/auth/guard";
import { captchaSettingsFromEnv } from "~/.server/captcha/verify";
import { smtpConfigFromEnv } from "~/.server/mail/config";
import { AccountSection } from "~/components/settings/account-section";
import { ContainerSection } from "~/components/settings/container-section";
import { FilesSection } from "~/components/settings/files-section";
import { PlatformSection } from "~/components/settings/platform-section";
import { idleSave, type SaveState } from "~/components/settings/section";
import type { AdminSettings } from "~/components/settings/types";
import { changedFields } from "~/core/ui/changed-fields";
import { api, errorMessage } from "~/lib/api";
import { pageTitle } from "~/lib/meta";
import { getInstance } from "~/middleware/i18next";
import type { Route } from "./+types/settings";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, env, "Admin");
  // Account mail needs SMTP settings of the server (FLAGSTAFF_SMTP_*), CAPTCHA a provider and its keys
  // (FLAGSTAFF_CAPTCHA_*): the account card warns without them.
  return {
    pageTitle: getInstance(context).t("settings.title"),
    mailEnabled: smtpConfigFromEnv(env) !== null,
    captchaEnabled: captchaSettingsFromEnv(env).provider !== "None",
  };
}

/** The settings are read from the API in the browser; a save revalidates, so every section shows what is stored. */
export async function clientLoader({ request, serverLoader }: Route.ClientLoaderArgs) {
  const [server, settings] = await Promise.all([serverLoader(), api<AdminSettings>("/api/admin/config", { signal: request.signal })]);
  return { ...server, settings };
}
clientLoader.hydrate = true as const;

export function meta({ matches, loaderData }: Route.MetaArgs) {
  return pageTitle(matches, loaderData?.pageTitle);
}

type SectionName = keyof AdminSettings;

/**
 * What the platform card's form edits: not the logo, which its logo field uploads and shows by itself (a logo
 * change keeps what is typed in the card, and the field's own message).
 */
function platformFormValues({ logoHash: _logo, faviconHash: _favicon, ...values }: AdminSettings["globalConfig"]) {
  return values;
}

export default function AdminSettingsPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { revalidate } = useRevalidator();
  const settings = "settings" in loaderData ? (loaderData.settings as AdminSettings) : null;
  const [states, setStates] = useState<Record<SectionName, SaveState>>({
    globalConfig: idleSave,
    accountPolicy: idleSave,
    containerPolicy: idleSave,
  });
  // Each form starts from the stored values and restarts when they change (its key is them): after its own
  // save once the new values have loaded, never because another card was saved (its typing stays). A key
  // bumped right after `revalidate()` restarted every form from the values of before the save, and the
  // next save sent them back.

  async function save<S extends SectionName>(section: S, patch: Partial<AdminSettings[S]>) {
    setStates((s) => ({ ...s, [section]: { ...idleSave, busy: true } }));
    try {
      // Only what this card changed: another tab's saves of other fields stay.
      const changed = settings ? changedFields(settings[section] as Record<string, unknown>, patch as Record<string, unknown>) : patch;
      await api("/api/admin/config", { method: "PUT", body: { [section]: changed } });
      await revalidate();
      setStates((s) => ({ ...s, [section]: { ...idleSave, saved: true } }));
    } catch (error) {
      setStates((s) => ({ ...s, [section]: { ...idleSave, error: errorMessage(error) } }));
    }
  }

  /** A card saved as loaded: nothing is sent, and the card says so. */
  const noChange = (section: SectionName) => setStates((s) => ({ ...s, [section]: { ...idleSave, noChange: true } }));

  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">{t("settings.title")}</h1>
      {settings === null ? (
        <p role="status" className="py-12 text-center text-zinc-600 dark:text-zinc-400">
          {t("common.loading")}
        </p>
      ) : (
        <>
          <PlatformSection
            key={`platform-${JSON.stringify(platformFormValues(settings.globalConfig))}`}
            settings={settings.globalConfig}
            state={states.globalConfig}
            onSave={(patch) => void save("globalConfig", patch)}
            onNoChange={() => noChange("globalConfig")}
            onRefused={() => setStates((s) => ({ ...s, globalConfig: idleSave }))}
            onLogoChanged={() => void revalidate()}
          />
          <AccountSection
            key={`account-${JSON.stringify(settings.accountPolicy)}`}
            settings={settings.accountPolicy}
            state={states.accountPolicy}
            mailEnabled={loaderData.mailEnabled}
            captchaEnabled={loaderData.captchaEnabled}
            onSave={(patch) => void save("accountPolicy", patch)}
            onNoChange={() => noChange("accountPolicy")}
          />
          <ContainerSection
            key={`container-${JSON.stringify(settings.containerPolicy)}`}
            settings={settings.containerPolicy}
            state={states.containerPolicy}
            onSave={(patch) => void save("containerPolicy", patch)}
            onNoChange={() => noChange("containerPolicy")}
            onRefused={() => setStates((s) => ({ ...s, containerPolicy: idleSave }))}
          />
          <FilesSection />
        </>
      )}
    </div>
  );
}
