import { env } from "cloudflare:workers";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useRevalidator } from "react-router";
import { requireUser } from "~/.server/auth/guard";
import { AccountSection } from "~/components/settings/account-section";
import { ContainerSection } from "~/components/settings/container-section";
import { FilesSection } from "~/components/settings/files-section";
import { PlatformSection } from "~/components/settings/platform-section";
import { idleSave, type SaveState } from "~/components/settings/section";
import type { AdminSettings } from "~/components/settings/types";
import { api, errorMessage } from "~/lib/api";
import { pageTitle } from "~/lib/meta";
import { getInstance } from "~/middleware/i18next";
import type { Route } from "./+types/settings";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireUser(request, env, "Admin");
  return { pageTitle: getInstance(context).t("settings.title") };
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

export default function AdminSettingsPage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { revalidate } = useRevalidator();
  const settings = "settings" in loaderData ? (loaderData.settings as AdminSettings) : null;
  const [states, setStates] = useState<Record<SectionName, SaveState>>({
    globalConfig: idleSave,
    accountPolicy: idleSave,
    containerPolicy: idleSave,
  });
  // Forms start from the stored values and restart after each load (the key changes with them).
  const [version, setVersion] = useState(0);

  async function save<S extends SectionName>(section: S, patch: Partial<AdminSettings[S]>) {
    setStates((s) => ({ ...s, [section]: { busy: true, error: null, saved: false } }));
    try {
      await api("/api/admin/config", { method: "PUT", body: { [section]: patch } });
      await revalidate();
      setVersion((v) => v + 1);
      setStates((s) => ({ ...s, [section]: { busy: false, error: null, saved: true } }));
    } catch (error) {
      setStates((s) => ({ ...s, [section]: { busy: false, error: errorMessage(error), saved: false } }));
    }
  }

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
            key={`platform-${version}-${settings.globalConfig.logoHash ?? ""}`}
            settings={settings.globalConfig}
            state={states.globalConfig}
            onSave={(patch) => void save("globalConfig", patch)}
            onLogoChanged={() => void revalidate()}
          />
          <AccountSection
            key={`account-${version}`}
            settings={settings.accountPolicy}
            state={states.accountPolicy}
            onSave={(patch) => void save("accountPolicy", patch)}
          />
          <ContainerSection
            key={`container-${version}`}
            settings={settings.containerPolicy}
            state={states.containerPolicy}
            onSave={(patch) => void save("containerPolicy", patch)}
          />
          <FilesSection />
        </>
      )}
    </div>
  );
}
