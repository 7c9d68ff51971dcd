// Lighthouse through its own Node API, several runs one after another in one process and
// one headless Chromium (CHROME_PATH): node lighthouse.mjs JOB, where JOB is JSON:
// {"flags": {...Lighthouse flags...}, "chromeFlags": [...], "runs": [[url, form], ...]}
// and form is "mobile" (Lighthouse's default settings) or "desktop" (its desktop preset, as
// the CLI's --preset=desktop). Prints each run's report (LHR) as one line of JSON, in order.
// Used by tests/test_lighthouse.py: Node's start and Lighthouse's loading are paid once, and
// Chromium started once, instead of once for each page. Lighthouse resets the origin's
// storage and cache before each run, so each page still loads cold.
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import desktopConfig from "lighthouse/core/config/desktop-config.js";

const job = JSON.parse(process.argv[2]);
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH, chromeFlags: job.chromeFlags });
try {
  for (const [url, form] of job.runs) {
    const config = form === "desktop" ? desktopConfig : undefined;
    const result = await lighthouse(url, { ...job.flags, port: chrome.port }, config);
    process.stdout.write(JSON.stringify(result.lhr) + "\n");
  }
} finally {
  await chrome.kill();
}
