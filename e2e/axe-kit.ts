/**
 * axe-core in Chromium (WCAG 2.0 and 2.1 A and AA rules) for the e2e files that audit their own screens: the
 * audit e2e/a11y.e2e.ts and the desk's e2e files run.
 * A "serious" or "critical" finding is returned as a line naming the rule and the elements.
 */
import type { Page } from "./harness.ts";

const AXE_SOURCE = await Deno.readTextFile(new URL("../node_modules/axe-core/axe.min.js", import.meta.url));

interface Finding {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

/**
 * Runs axe on the current document. The page's CSP allows only 'self' scripts, so an injected
 * <script> would be blocked; evaluating the source through the DevTools protocol is not subject to it.
 */
export async function audit(page: Page, label: string): Promise<string[]> {
  // What the audit needs is on the page: the caller waited for its elements (never for the network
  // to go quiet: a page may keep a request open, docs/decisions/0447); the document has loaded.
  await page.waitForLoadState("load");
  // Entry animations (flash, cookie bar) must end, or contrast is measured mid-fade. The cookie bar
  // comes a second after start unless accepted, on every page with the full layout (the one with
  // the footer's privacy link; the bare maintenance page has neither): wait for the bar itself.
  await page.waitForFunction(() =>
    localStorage.getItem("cookieConsent") === "true" || document.querySelector(".cookie-bar") !== null ||
    document.querySelector(".site-footer a[href='/privacy']") === null
  );
  await page.evaluate(() =>
    Promise.all(
      document.getAnimations()
        .filter((a) => a.effect?.getComputedTiming().iterations !== Infinity)
        .map((a) => a.finished.catch(() => {})),
    )
  );
  // The body's faint radial glows make axe give up on contrast ("background gradient") for all text
  // placed on the page background; audit against the flat --bg they fade into (the glows are at most
  // 7 % lime, which only lightens the background and so cannot lower contrast of light text much).
  await page.evaluate(() => document.body.style.setProperty("background-image", "none"));
  const loaded = await page.evaluate(() => typeof (globalThis as { axe?: unknown }).axe !== "undefined");
  if (!loaded) await page.evaluate(AXE_SOURCE);
  const findings = await page.evaluate(async () => {
    // deno-lint-ignore no-explicit-any
    const axe = (globalThis as any).axe;
    // WCAG 2.1 A and AA as well, with the (experimental) check that a control's name holds its
    // visible words (issue 31: the dashboards' figures read «777 New» but were named otherwise).
    const result = await axe.run(document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] },
      rules: { "label-content-name-mismatch": { enabled: true } },
    });
    // deno-lint-ignore no-explicit-any
    (globalThis as any).__axeLast = result;
    // axe files a prohibited aria-label on an element with text under "incomplete", yet assistive
    // technology ignores it all the same: count it.
    // deno-lint-ignore no-explicit-any
    const unsure = result.incomplete.filter((v: any) => v.id === "aria-prohibited-attr");
    // deno-lint-ignore no-explicit-any
    return [...result.violations, ...unsure].map((v: any) => ({
      id: v.id,
      impact: v.impact ?? "",
      help: v.help,
      // deno-lint-ignore no-explicit-any
      targets: v.nodes.map((n: any) =>
        `${n.target.join(" ")} ${n.html.slice(0, 120)} [${
          n.failureSummary?.split("\n").slice(1).join(" ").slice(0, 200)
        }]`
      ),
    }));
  }) as Finding[];
  if (Deno.env.get("A11Y_DEBUG")) {
    const extra = await page.evaluate(() => {
      // deno-lint-ignore no-explicit-any
      const r = (globalThis as any).__axeLast;
      type AxeNode = { target: string[]; any: { message?: string }[] };
      return {
        passes: r.passes.length,
        incomplete: r.incomplete.map((v: { id: string; nodes: AxeNode[] }) => [
          v.id,
          v.nodes.length,
          v.nodes.slice(0, 4).map((n) => n.target.join(" ") + " :: " + (n.any[0]?.message ?? "")),
        ]),
      };
    });
    console.log(label, JSON.stringify(findings.map((f) => [f.id, f.impact, f.targets])), JSON.stringify(extra));
  }
  return findings
    .filter((f) => f.impact === "serious" || f.impact === "critical")
    .map((f) => `${label}: ${f.id} (${f.impact}) ${f.help} → ${f.targets.join(" | ")}`);
}
