import { useTranslation } from "react-i18next";
import { selectClass } from "~/components/ui/select";
import { parseTheme, setThemePreference, THEMES, type ThemePreference } from "~/lib/theme";

export function ThemeSwitch({ preference }: { preference: ThemePreference }) {
  const { t } = useTranslation();
  return (
    <div className="flex items-center">
      <label htmlFor="theme-switch" className="sr-only">
        {t("theme.label")}
      </label>
      <select
        id="theme-switch"
        className={selectClass}
        value={preference}
        onChange={(e) => {
          const next = parseTheme(e.currentTarget.value);
          if (next) setThemePreference(next);
        }}
      >
        {THEMES.map((theme) => (
          <option key={theme} value={theme}>
            {t(`theme.${theme}`)}
          </option>
        ))}
      </select>
    </div>
  );
}
