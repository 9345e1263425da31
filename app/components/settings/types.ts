import type { AccountPolicy, ContainerPolicy, GlobalConfig } from "~/core/schemas/config";

/** GET /api/admin/config. */
export interface AdminSettings {
  accountPolicy: AccountPolicy;
  globalConfig: GlobalConfig;
  containerPolicy: ContainerPolicy;
}
