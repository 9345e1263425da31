import { captchaSettingsFromEnv, requireCaptcha } from "~/.server/captcha/verify";
import { getPlatformConfig } from "~/.server/services/config";
import type { ApiContext } from "./context";

/** Verifies the request's captcha token when the account policy asks for one (login, register, recovery). */
export async function checkCaptcha(c: ApiContext, token: string | undefined): Promise<void> {
  const { accountPolicy } = await getPlatformConfig(c.get("db"), c.get("now"));
  await requireCaptcha(captchaSettingsFromEnv(c.env), accountPolicy.useCaptcha, token, c.get("ip"));
}
