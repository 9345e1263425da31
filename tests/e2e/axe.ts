import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "@playwright/test";
import type { AxeResults, RunOptions } from "axe-core";

/** axe-core's checks for the specs (tests/e2e/a11y.spec.ts sweeps every route with them). */
const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/**
 * Serious and critical violations, one line each (rule, impact, first targets). axe-core runs in the page
 * itself, put there once per document: one check then costs ≈ 0.16 s, against ≈ 0.77 s through
 * `@axe-core/playwright`, which injects axe again for every check (DECISIONS.md). The app has no frames.
 */
export async function seriousViolations(page: Page, only?: string[]) {
  const violations = await axeViolations(page, { runOnly: only ? { type: "rule", values: only } : { type: "tag", values: TAGS }, resultTypes: ["violations"] });
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id} (${v.impact}): ${v.targets.join(" | ")}`);
}

/** Violations of the named rules whatever their impact (heading rules are "moderate" best practices). */
export async function ruleViolations(page: Page, rules: string[]) {
  const violations = await axeViolations(page, { runOnly: { type: "rule", values: rules }, resultTypes: ["violations"] });
  return violations.map((v) => `${v.id} (${v.impact}): ${v.targets.join(" | ")}`);
}

async function axeViolations(page: Page, options: RunOptions) {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(
    async (runOptions) =>
      ((await (window as unknown as { axe: { run: (context: Document, options: RunOptions) => Promise<AxeResults> } }).axe.run(document, runOptions)) as AxeResults).violations.map((v) => ({
        id: v.id,
        impact: v.impact,
        targets: v.nodes.slice(0, 3).map((n) => n.target.join(" ")),
      })),
    options,
  );
}
