import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Button, type ButtonVariant, LABEL_WHOLE } from "./button";

const COPIED_MS = 2000;

/**
 * A button that copies `text` to the clipboard. For two seconds its label reads "Copied", and a polite
 * status says so too: screen readers do not read a focused button's new name. A refused clipboard (a page
 * not served over HTTPS or loopback, a denied permission) calls `onFailure`; the caller says where to copy
 * by hand. `variant: "link"` draws it as the small text link of a details list.
 */
export function CopyButton({
  text,
  onFailure,
  onCopied,
  variant = "secondary",
  className = "",
}: {
  text: string;
  onFailure: () => void;
  /** Clears what an earlier refusal said. */
  onCopied: () => void;
  variant?: ButtonVariant | "link";
  className?: string;
}) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      onCopied();
    } catch {
      setCopied(false);
      onFailure();
    }
  };
  const label = copied ? t("copy.copied") : t("copy.copy");
  return (
    <>
      {variant === "link" ? (
        <button type="button" onClick={() => void copy()} className={`touch-target inline-flex items-center ${LABEL_WHOLE} text-xs font-medium text-primary-700 hover:underline dark:text-primary-300 ${className}`}>
          {label}
        </button>
      ) : (
        <Button variant={variant} className={className} onClick={() => void copy()}>
          {label}
        </Button>
      )}
      <span role="status" className="sr-only">
        {copied ? t("copy.announced") : ""}
      </span>
    </>
  );
}
