import { useTranslation } from "react-i18next";
import { useRevalidator } from "react-router";
import { selectClass } from "~/components/ui/select";
import { matchLanguage } from "~/core/i18n/languages";
import { LANGUAGE_NAMES, LANGUAGES, persistLanguage } from "~/lib/language";

export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const revalidator = useRevalidator();
  const current = matchLanguage(i18n.resolvedLanguage ?? i18n.language) ?? "en-US";

  async function choose(value: string) {
    const language = matchLanguage(value);
    if (!language) return;
    persistLanguage(language);
    await i18n.changeLanguage(language);
    // Loaders render localised data and <html lang> comes from the root loader.
    await revalidator.revalidate();
  }

  return (
    <div className="flex items-center">
      <label htmlFor="language-switch" className="sr-only">
        {t("language.label")}
      </label>
      <select
        id="language-switch"
        className={selectClass}
        value={current}
        onChange={(e) => void choose(e.currentTarget.value)}
      >
        {LANGUAGES.map((language) => (
          <option key={language} value={language} lang={language}>
            {LANGUAGE_NAMES[language]}
          </option>
        ))}
      </select>
    </div>
  );
}
