import type { PortMappingType } from "./enums";

const INSTANCE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * How a container is reached, read from its own entry (rules.md §8): the instance UUID under
 * PlatformProxy (through /api/proxy/{id}), `host:port` under Default. Not from the current setting: a
 * container keeps the mapping it was started with when an operator switches it.
 */
export function portMappingOfEntry(entry: string): PortMappingType {
  return INSTANCE_ID.test(entry.trim()) ? "PlatformProxy" : "Default";
}
