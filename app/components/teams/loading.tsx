import { useTranslation } from "react-i18next";

/** Shown while a team screen's data loads in the browser. */
export function LoadingStatus() {
  const { t } = useTranslation();
  return (
    <p role="status" className="py-12 text-center text-zinc-600 dark:text-zinc-400">
      {t("common.loading")}
    </p>
  );
}
