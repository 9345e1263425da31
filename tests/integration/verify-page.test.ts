import { describe, expect, it } from "vitest";
import enUS from "~/locales/en-US/common.json";
import jaJP from "~/locales/ja-JP/common.json";
import zhCN from "~/locales/zh-CN/common.json";
import { Client, newUser } from "./helpers";

type Common = typeof enUS;
const LOCALES: [string, Common][] = [
  ["en-US", enUS],
  ["ja-JP", jaJP as Common],
  ["zh-CN", zhCN as Common],
];

/** The text of the page's links to `href`, in the server's HTML. */
const linksTo = (html: string, href: string) =>
  [...html.matchAll(new RegExp(`<a [^>]*href="${href.replace(/[/?]/g, "\\$&")}"[^>]*>([^<]*)</a>`, "g"))].map((m) => m[1]);

/**
 * The activation page when the link cannot be used (a link without its token, one used already): a visitor
 * is offered to log in; a signed-in user (the link signed them in the first time) is told so and offered the
 * site, not a log-in they do not need.
 */
describe("the activation page with a link it cannot use", () => {
  it.each(LOCALES)("offers a signed-in user the home page and a visitor the log-in (%s)", async (lang, c) => {
    const { client, userName } = await newUser({ lang });
    const signedIn = await client.fetch("/account/verify");
    expect(signedIn.status).toBe(200);
    const page = await signedIn.text();
    expect(page).toContain(c.verify.failedTitle);
    expect(page).toContain(c.verify.signedInAs.replace("{{user}}", userName));
    expect(linksTo(page, "/")).toContain(c.verify.home);
    expect(linksTo(page, "/account/login")).not.toContain(c.verify.toLogin);

    const visitor = await new Client({ lang }).fetch("/account/verify");
    const visitorPage = await visitor.text();
    expect(visitorPage).toContain(c.verify.failedTitle);
    expect(linksTo(visitorPage, "/account/login")).toContain(c.verify.toLogin);
    expect(linksTo(visitorPage, "/")).not.toContain(c.verify.home);
  });
});
