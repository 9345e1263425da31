import { CONTAINER_POLICY_MINUTES } from "../schemas/config";

/**
 * The minute fields of the settings page's container policy card, checked before saving. A field left
 * empty used to be sent as NaN, which JSON writes as null, which the API reads as "unchanged": the card
 * said "Settings saved" and nothing changed.
 */
export type ContainerMinutesField = keyof typeof CONTAINER_POLICY_MINUTES;

export interface MinutesProblem {
  min: number;
  max: number;
}

/** The typed values as numbers, or every field whose value is empty or not a whole number in its range. */
export function checkContainerMinutes(
  raw: Record<ContainerMinutesField, string>,
): { values: Record<ContainerMinutesField, number> } | { problems: Partial<Record<ContainerMinutesField, MinutesProblem>> } {
  const values = {} as Record<ContainerMinutesField, number>;
  const problems: Partial<Record<ContainerMinutesField, MinutesProblem>> = {};
  for (const field of Object.keys(CONTAINER_POLICY_MINUTES) as ContainerMinutesField[]) {
    const { min, max } = CONTAINER_POLICY_MINUTES[field];
    const text = raw[field].trim();
    const value = Number(text);
    if (text === "" || !Number.isInteger(value) || value < min || value > max) problems[field] = { min, max };
    else values[field] = value;
  }
  return Object.keys(problems).length > 0 ? { problems } : { values };
}
