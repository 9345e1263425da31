import { IMAGE_LIMIT, releaseFile, type StorageDeps, storeUpload } from "../storage/files";
import { getPlatformConfig, invalidateConfigCache, savePlatformConfig } from "./config";

export const logoUrl = (hash: string) => `/assets/${hash}/logo`;

/**
 * POST admin/config/logo: stores the image (1 B – 3 MB, an image by content) as the logo and releases
 * the previous one. The favicon is the logo itself (faviconHash = logoHash, one file reference).
 */
export async function setLogo(deps: StorageDeps, file: unknown): Promise<string> {
  const stored = await storeUpload(deps, file, { kind: "image", limit: IMAGE_LIMIT, name: "logo" });
  // The logo to release is read from the database, not from this isolate's settings cache.
  invalidateConfigCache();
  const current = await getPlatformConfig(deps.db, deps.now);
  const previous = current.globalConfig.logoHash;
  await savePlatformConfig(deps.db, { globalConfig: { logoHash: stored.hash, faviconHash: stored.hash } }, deps.now);
  await releaseFile(deps, previous);
  return logoUrl(stored.hash);
}

/** DELETE admin/config/logo: back to the default logo and favicon. */
export async function resetLogo(deps: StorageDeps): Promise<void> {
  // The logo to release is read from the database, not from this isolate's settings cache.
  invalidateConfigCache();
  const current = await getPlatformConfig(deps.db, deps.now);
  const previous = current.globalConfig.logoHash;
  if (!previous && !current.globalConfig.faviconHash) return;
  await savePlatformConfig(deps.db, { globalConfig: { logoHash: null, faviconHash: null } }, deps.now);
  await releaseFile(deps, previous);
}
