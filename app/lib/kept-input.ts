/**
 * What a refused form keeps of what was typed when the server draws its page again. A form posted without
 * the page's JavaScript (or before it ran) is answered by the route's server action with a new page, whose
 * fields would come back empty; with JavaScript the browser's fields stay as typed and nothing is sent back.
 * A route names the fields to keep: text a user would not want to type again (a user name, an address),
 * never a password or a captcha token. They come back as their fields' `defaultValue`.
 */

/** The refused answer's copy of the fields kept, as posted ("" for a field absent or not text). */
export type KeptInput<K extends string> = { keptInput: { [P in K]: string } };

/** `names` of `form`, as the user typed them (not trimmed: the field shows its text as it was). */
export function keepInput<K extends string>(form: FormData, names: readonly K[]): KeptInput<K> {
  const kept = {} as { [P in K]: string };
  for (const name of names) {
    const value = form.get(name);
    kept[name] = typeof value === "string" ? value : "";
  }
  return { keptInput: kept };
}

/** The names an action's answer may carry (only answers of a server action given fields to keep have any). */
type KeptNames<A> = A extends { keptInput: infer I } ? keyof I & string : never;

/** The text field `name` had in a form the server refused, for the field's `defaultValue`; undefined otherwise. */
export function keptValue<A>(actionData: A, name: KeptNames<A>): string | undefined {
  if (typeof actionData !== "object" || actionData === null || !("keptInput" in actionData)) return undefined;
  const kept = actionData.keptInput as Partial<Record<string, unknown>>;
  const value = kept[name];
  return typeof value === "string" ? value : undefined;
}
