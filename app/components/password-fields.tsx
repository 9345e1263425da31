import { useState } from "react";
import { useTranslation } from "react-i18next";
import { passwordHints } from "~/core/schemas/account";
import { TextField } from "~/components/ui/field";
import type { NewPasswordProblem } from "~/core/ui/new-password";

function HintList({ password }: { password: string }) {
  const { t } = useTranslation();
  const hints = passwordHints(password);
  const items = [
    { key: "length", met: hints.length, label: t("password.hint.length") },
    { key: "lowercase", met: hints.lowercase, label: t("password.hint.lowercase") },
    { key: "uppercase", met: hints.uppercase, label: t("password.hint.uppercase") },
    { key: "digit", met: hints.digit, label: t("password.hint.digit") },
    { key: "symbol", met: hints.symbol, label: t("password.hint.symbol") },
  ];
  return (
    <ul className="mt-1 grid gap-x-4 gap-y-0.5 xs:grid-cols-2" aria-label={t("password.hint.title")}>
      {items.map((item) => (
        <li
          key={item.key}
          data-met={item.met}
          className={item.met ? "text-emerald-700 dark:text-emerald-400" : "text-zinc-600 dark:text-zinc-400"}
        >
          <span aria-hidden="true" className="me-1 inline-block w-3 text-center">
            {item.met ? "✓" : "•"}
          </span>
          {item.label}
          <span className="sr-only"> — {item.met ? t("password.hint.met") : t("password.hint.unmet")}</span>
        </li>
      ))}
    </ul>
  );
}

/**
 * A new password with live policy hints and its retyped copy. The mismatch message appears as soon
 * as the retyped copy is filled in; `problem` is the form's verdict on submit, `refusal` the server's
 * message about the password.
 */
export function NewPasswordFields({
  name,
  label,
  problem,
  refusal,
}: {
  name: string;
  label: string;
  problem?: NewPasswordProblem | null;
  refusal?: string | null;
}) {
  const { t } = useTranslation();
  const [password, setPassword] = useState("");
  const [retype, setRetype] = useState("");
  const mismatch = retype.length > 0 && retype !== password;

  return (
    <>
      <TextField
        label={label}
        name={name}
        type="password"
        autoComplete="new-password"
        required
        value={password}
        onChange={(e) => setPassword(e.currentTarget.value)}
        error={problem && problem !== "password.mismatch" ? t(problem) : (refusal ?? null)}
        description={<HintList password={password} />}
      />
      <TextField
        label={t("password.retype")}
        name={`${name}Retype`}
        type="password"
        autoComplete="new-password"
        required
        value={retype}
        onChange={(e) => setRetype(e.currentTarget.value)}
        // Said as the copy is typed; the form's verdict on submit stands for a copy left empty.
        liveError={mismatch ? t("password.mismatch") : null}
        error={problem === "password.mismatch" && retype.length === 0 ? t("password.mismatch") : null}
      />
    </>
  );
}
