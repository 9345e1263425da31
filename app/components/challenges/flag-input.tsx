import { type FormEvent, useId, useLayoutEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { FLAG_MAX_LENGTH } from "~/core/game-room/schemas";
import { codePointLength } from "~/core/text-length";
import { errorMessage } from "~/lib/api";
import { FLAG_PLACEHOLDER_COUNT, pickPlaceholder } from "./placeholders";

/**
 * The flag box of a challenge. It refuses an empty or too long flag itself and hands anything else to `submit`
 * (POST game/{id}/challenges/{cid} and the verdict live with the submission code); a rejected promise
 * shows its message. A sent flag stays in the box, selected: typing replaces it, and a typo is mended with
 * the arrow keys instead of retyping the whole flag (an accepted one closes the box). The empty box shows
 * one of our playful lines, picked when it mounts among those the box shows whole.
 */
export function FlagInput({
  submit,
  onRefused,
  disabled = false,
}: {
  submit: (flag: string) => Promise<void>;
  /**
   * A flag was refused (by the box, or by the server): the verdict of the flag sent before is no longer
   * about what the box says, and shown beside the refusal it read as this flag's (a wrong verdict under
   * "too long" looked like an attempt spent).
   */
  onRefused?: () => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const [random] = useState(() => Math.random());
  const [placeholder, setPlaceholder] = useState(() => Math.floor(random * FLAG_PLACEHOLDER_COUNT));
  const [flag, setFlag] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // The box's own refusal (empty, too long): the box is marked invalid, described by the message and focused.
  const [invalid, setInvalid] = useState(false);
  const errorId = useId();
  const input = useRef<HTMLInputElement>(null);

  // Only a line the box can show whole: on a phone the long ones were cut mid-sentence. Measured in the
  // placeholder's font, again when the box changes width (a turned phone).
  useLayoutEffect(() => {
    const box = input.current;
    const ctx = box ? document.createElement("canvas").getContext("2d") : null;
    if (!box || !ctx) return;
    const lines = Array.from({ length: FLAG_PLACEHOLDER_COUNT }, (_, i) => t(`challenge.placeholders.${i}`));
    const fit = () => {
      const css = getComputedStyle(box);
      const font = getComputedStyle(box, "::placeholder");
      ctx.font = `${font.fontStyle} ${font.fontWeight} ${font.fontSize} ${font.fontFamily}`;
      const room = box.clientWidth - Number.parseFloat(css.paddingLeft) - Number.parseFloat(css.paddingRight);
      setPlaceholder(pickPlaceholder(lines, random, room, (line) => ctx.measureText(line).width));
    };
    fit();
    const observer = new ResizeObserver(fit);
    observer.observe(box);
    return () => observer.disconnect();
  }, [t, random]);

  function refuse(message: string) {
    onRefused?.();
    setError(message);
    setInvalid(true);
    input.current?.focus();
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const value = flag.trim();
    if (!value) {
      refuse(t("challenge.flagEmpty"));
      return;
    }
    // Said here, not cut by the box: a pasted flag cut short would be judged wrong and cost an attempt.
    const length = codePointLength(value);
    if (length > FLAG_MAX_LENGTH) {
      refuse(t("challenge.flagTooLong", { max: FLAG_MAX_LENGTH, length }));
      return;
    }
    setBusy(true);
    setError(null);
    setInvalid(false);
    try {
      await submit(value);
      input.current?.select();
    } catch (err) {
      onRefused?.();
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="space-y-2" noValidate onSubmit={(e) => void onSubmit(e)}>
      <div className="flex gap-2">
        <input
          ref={input}
          aria-label={t("challenge.flag")}
          name="flag"
          autoComplete="off"
          spellCheck={false}
          // Flags are case-sensitive: a phone keyboard must not capitalise or correct what is typed.
          autoCapitalize="off"
          autoCorrect="off"
          value={flag}
          disabled={disabled}
          // Read-only, not disabled, while the flag is sent: the box keeps the focus for the next try.
          readOnly={busy}
          aria-busy={busy || undefined}
          aria-invalid={invalid || undefined}
          aria-describedby={error ? errorId : undefined}
          placeholder={t(`challenge.placeholders.${placeholder}`)}
          onChange={(e) => {
            setFlag(e.target.value);
            // The box's own refusal speaks of what was in it: changed, it goes (a verdict or the server's error stays).
            if (invalid) {
              setInvalid(false);
              setError(null);
            }
          }}
          className="block w-full min-w-0 rounded-md border border-zinc-300 bg-white px-3 py-2 font-mono text-sm text-zinc-900 placeholder:font-sans placeholder:text-zinc-500 focus:border-primary-500 focus:outline-2 focus:outline-primary-500/40 disabled:opacity-60 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100 dark:placeholder:text-zinc-400"
        />
        <Button type="submit" className="shrink-0 whitespace-nowrap" disabled={disabled || busy}>
          {busy ? t("teams.working") : t("challenge.submit")}
        </Button>
      </div>
      {error ? (
        <Alert tone="error" id={errorId}>
          {error}
        </Alert>
      ) : null}
    </form>
  );
}
