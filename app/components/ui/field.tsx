import { type ComponentProps, createContext, type ReactNode, useContext, useId, useState } from "react";
import { computeFieldEdit, computeShownFieldError, type FieldEdit } from "~/core/ui/field-error";
import { useCharacterLimit } from "./character-limit";

// The hint text of empty fields keeps 4.5:1 (zinc-500 on white 4.8:1, zinc-400 on zinc-900 6.8:1): some carry the only
// example of a field's format (the team invite code).
const controlClass =
  "touch-target block w-full rounded-md border bg-white px-3 py-2 text-sm text-zinc-900 shadow-xs placeholder:text-zinc-500 focus:border-primary-500 focus:outline-2 focus:outline-offset-0 focus:outline-primary-500/40 disabled:opacity-60 dark:bg-zinc-900 dark:text-zinc-100 dark:placeholder:text-zinc-400";

interface FieldChrome {
  label: string;
  /** A sentence under the control; for screen readers too. */
  description?: ReactNode;
  /** The form's refusal of this field: inside `FieldErrors`, it goes once the user changes the field. */
  error?: string | null;
}

const RefusalContext = createContext<unknown>(null);

/**
 * The fields inside show the errors of `refusal` (a new truthy value per refusal of the form: its action's
 * answer, an error object, a counter) until the user changes them: a changed field drops its error, the
 * others keep theirs, and the next refusal shows its errors again (app/core/ui/field-error.ts).
 */
export function FieldErrors({ refusal, children }: { refusal: unknown; children: ReactNode }) {
  return <RefusalContext value={refusal}>{children}</RefusalContext>;
}

/**
 * The error a field shows (`error` as long as the user has not changed the field under the current refusal),
 * and the change handler that notes the change before calling the field's own `onChange`.
 */
function useFieldError<Event>(
  error: string | null | undefined,
  onChange?: (event: Event) => void,
): [string | null, (event: Event) => void] {
  const refusal = useContext(RefusalContext);
  const [edited, setEdited] = useState<FieldEdit | null>(null);
  const shown = computeShownFieldError(error, refusal, edited);
  return [
    shown,
    (event) => {
      setEdited((previous) => computeFieldEdit(shown, refusal, previous));
      onChange?.(event);
    },
  ];
}

function borderClass(error?: string | null) {
  return error ? "border-red-500 dark:border-red-400" : "border-zinc-300 dark:border-zinc-700";
}

function FieldFrame({
  id,
  label,
  description,
  error,
  required,
  children,
}: FieldChrome & { id: string; required?: boolean; children: ReactNode }) {
  return (
    <div className="space-y-1.5">
      <div className="flex items-baseline gap-0.5">
        <label htmlFor={id} className="text-sm font-medium text-zinc-800 dark:text-zinc-200">
          {label}
        </label>
        {/* Outside the label so the field's name stays exactly its label; `required` tells assistive tech. */}
        {required ? (
          <span aria-hidden="true" className="text-sm text-red-600 dark:text-red-400">
            *
          </span>
        ) : null}
      </div>
      {children}
      {description ? (
        <div id={`${id}-description`} className="text-xs text-zinc-600 dark:text-zinc-400">
          {description}
        </div>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function describedBy(id: string, { description, error }: FieldChrome) {
  const ids = [description ? `${id}-description` : null, error ? `${id}-error` : null].filter(Boolean);
  return ids.length ? ids.join(" ") : undefined;
}

/** The id of a field's control and its ARIA links to the field's description and error. */
function controlAttributes(id: string, chrome: FieldChrome) {
  return { id, "aria-invalid": chrome.error ? true : undefined, "aria-describedby": describedBy(id, chrome) };
}

/** A text input with the fields' chrome; `maxLength` is in characters, as the server counts them (`useCharacterLimit`). */
export function TextField({
  label,
  description,
  error: refusal,
  liveError,
  id,
  className = "",
  maxLength,
  ref,
  onChange,
  ...props
}: FieldChrome & { liveError?: string | null } & ComponentProps<"input">) {
  const generated = useId();
  const inputId = id ?? generated;
  const limit = useCharacterLimit(maxLength, props.value ?? props.defaultValue, ref);
  const [refusalShown, change] = useFieldError(refusal, onChange);
  // An error worked out from the value as it is typed (`liveError`) stands whatever the user changes.
  const error = liveError || refusalShown;
  return (
    <FieldFrame id={inputId} label={label} description={description} error={error} required={props.required}>
      <input
        {...controlAttributes(inputId, { label, description, error })}
        className={`${controlClass} ${borderClass(error)} ${className}`}
        {...props}
        onChange={change}
        {...limit}
      />
    </FieldFrame>
  );
}

/** A textarea with the fields' chrome; `maxLength` is in characters, as in `TextField`. */
export function TextAreaField({
  label,
  description,
  error: refusal,
  id,
  className = "",
  maxLength,
  ref,
  onChange,
  ...props
}: FieldChrome & ComponentProps<"textarea">) {
  const generated = useId();
  const inputId = id ?? generated;
  const limit = useCharacterLimit(maxLength, props.value ?? props.defaultValue, ref);
  const [error, change] = useFieldError(refusal, onChange);
  return (
    <FieldFrame id={inputId} label={label} description={description} error={error} required={props.required}>
      <textarea
        {...controlAttributes(inputId, { label, description, error })}
        className={`${controlClass} ${borderClass(error)} min-h-24 ${className}`}
        {...props}
        onChange={change}
        {...limit}
      />
    </FieldFrame>
  );
}

/** A native select with the fields' label, description and error (the options are its children). */
export function SelectField({
  label,
  description,
  error: refusal,
  id,
  className = "",
  children,
  onChange,
  ...props
}: FieldChrome & ComponentProps<"select">) {
  const generated = useId();
  const inputId = id ?? generated;
  const [error, change] = useFieldError(refusal, onChange);
  return (
    <FieldFrame id={inputId} label={label} description={description} error={error} required={props.required}>
      <select
        {...controlAttributes(inputId, { label, description, error })}
        className={`${controlClass} ${borderClass(error)} ${className}`}
        {...props}
        onChange={change}
      >
        {children}
      </select>
    </FieldFrame>
  );
}
