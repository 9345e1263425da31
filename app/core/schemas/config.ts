import { z } from "zod";
import { PORT_MAPPING_TYPES } from "../enums";
import { isOneLine, ONE_LINE } from "./text";

/** Admin settings sections (api.md §7) with their defaults. */
export const accountPolicySchema = z.object({
  allowRegister: z.boolean().default(true),
  activeOnRegister: z.boolean().default(true),
  useCaptcha: z.boolean().default(false),
  emailConfirmationRequired: z.boolean().default(false),
  emailDomainList: z.string().max(1024).default(""),
});

/** One domain name: dot-separated labels of letters (any script), digits and inner hyphens. */
const DOMAIN = /^(?!-)[\p{L}\p{N}-]{1,63}(?<!-)(?:\.(?!-)[\p{L}\p{N}-]{1,63}(?<!-))*$/u;

/**
 * The email domain whitelist as the admin types it: comma-separated, a leading "@" allowed. Stored
 * normalised ("example.com, example.org": lower case, no blanks or repeats), so registrants read a clean
 * list; an entry that is not a domain name is refused by name.
 */
export const emailDomainListInput = z
  .string()
  .max(1024)
  .transform((value, ctx) => {
    const domains = value
      .split(",")
      .map((d) => d.trim().replace(/^@/, "").toLowerCase())
      .filter(Boolean);
    const bad = domains.find((d) => d.length > 253 || !DOMAIN.test(d));
    if (bad !== undefined) {
      ctx.addIssue({ code: "custom", message: "validation.email_domain_invalid", params: { domain: bad } });
      return z.NEVER;
    }
    return [...new Set(domains)].join(", ");
  });

/** `#rrggbb`, the keyword `brand`, or "" — anything else is stored as "" (rules.md §16). */
export function normalizeCustomTheme(value: unknown): string {
  if (typeof value !== "string") return "";
  const v = value.trim();
  return /^#[0-9a-fA-F]{6}$/.test(v) || v === "brand" ? v : "";
}

export const globalConfigSchema = z.object({
  title: z.string().trim().max(64).default("Flagstaff"),
  slogan: z.string().max(256).default(""),
  description: z.string().max(65536).default(""),
  footerInfo: z.string().max(4096).default(""),
  customTheme: z.unknown().transform(normalizeCustomTheme).default(""),
  logoHash: z.string().nullable().default(null),
  faviconHash: z.string().nullable().default(null),
});

/** The ranges of the container policy's numbers (minutes), also checked by the settings form. */
export const CONTAINER_POLICY_MINUTES = {
  defaultLifetime: { min: 1, max: 7200 },
  extensionDuration: { min: 1, max: 7200 },
  renewalWindow: { min: 1, max: 360 },
} as const;

const minutes = (field: keyof typeof CONTAINER_POLICY_MINUTES) => z.number().int().min(CONTAINER_POLICY_MINUTES[field].min).max(CONTAINER_POLICY_MINUTES[field].max);

export const containerPolicySchema = z.object({
  defaultLifetime: minutes("defaultLifetime").default(120),
  extensionDuration: minutes("extensionDuration").default(120),
  renewalWindow: minutes("renewalWindow").default(10),
  autoDestroyOnLimitReached: z.boolean().default(false),
  extraFlagEnvNames: z
    .array(z.string().regex(/^(?!FLAGSTAFF_)[A-Za-z_][A-Za-z0-9_]{0,63}$/, "validation.env_name"))
    .max(16)
    .default([]),
});

export type AccountPolicy = z.infer<typeof accountPolicySchema>;
export type GlobalConfig = z.infer<typeof globalConfigSchema>;
export type ContainerPolicy = z.infer<typeof containerPolicySchema>;

export interface ClientConfig {
  title: string;
  slogan: string;
  footerInfo: string;
  customTheme: string;
  logoUrl: string | null;
  portMapping: (typeof PORT_MAPPING_TYPES)[number];
  defaultLifetime: number;
  extensionDuration: number;
  renewalWindow: number;
}

export function toClientConfig(g: GlobalConfig, c: ContainerPolicy, portMapping: ClientConfig["portMapping"]): ClientConfig {
  return {
    title: g.title || "Flagstaff",
    slogan: g.slogan,
    footerInfo: g.footerInfo,
    customTheme: g.customTheme,
    logoUrl: g.logoHash ? `/assets/${g.logoHash}/logo` : null,
    portMapping,
    defaultLifetime: c.defaultLifetime,
    extensionDuration: c.extensionDuration,
    renewalWindow: c.renewalWindow,
  };
}

/** PUT admin/config: every section and field optional; omitted or null fields stay unchanged. */
export const configUpdateSchema = z.object({
  accountPolicy: z
    .object({
      allowRegister: z.boolean().nullish(),
      activeOnRegister: z.boolean().nullish(),
      useCaptcha: z.boolean().nullish(),
      emailConfirmationRequired: z.boolean().nullish(),
      emailDomainList: emailDomainListInput.nullish(),
    })
    .nullish(),
  globalConfig: z
    .object({
      title: z.string().trim().min(1).max(64).refine(isOneLine, ONE_LINE).nullish(),
      slogan: z.string().max(256).refine(isOneLine, ONE_LINE).nullish(),
      description: z.string().max(65536).nullish(),
      footerInfo: z.string().max(4096).nullish(),
      /** Never refused: an invalid colour is stored as "" (api.md §7); null or omitted leaves it unchanged. */
      customTheme: z
        .unknown()
        .transform((v) => (v == null ? null : normalizeCustomTheme(v)))
        .optional(),
    })
    .nullish(),
  containerPolicy: z
    .object({
      defaultLifetime: containerPolicySchema.shape.defaultLifetime.unwrap().nullish(),
      extensionDuration: containerPolicySchema.shape.extensionDuration.unwrap().nullish(),
      renewalWindow: containerPolicySchema.shape.renewalWindow.unwrap().nullish(),
      autoDestroyOnLimitReached: z.boolean().nullish(),
      extraFlagEnvNames: containerPolicySchema.shape.extraFlagEnvNames.unwrap().nullish(),
    })
    .nullish(),
});
export type ConfigUpdate = z.infer<typeof configUpdateSchema>;
