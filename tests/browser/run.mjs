// End-to-end tests of the web console: a started `monotable serve --in-memory` on a free port,
// Debian's Chromium driven headless by playwright-core, the steps a user takes in order. Each
// step saves a screenshot under artifacts/ (git-ignored). Prints `N passed, N failed` and exits
// non-zero when a step failed. Usage: node run.mjs [path/to/monotable] (default build/monotable).
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from './server.mjs';
import { steps } from './steps.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const binary = resolve(process.argv[2] ?? process.env.MONOTABLE_BINARY ?? join(here, '../../build/monotable'));
const artifacts = join(here, 'artifacts');
const TOTAL_SECONDS = Number(process.env.BROWSER_TEST_SECONDS ?? 240);

async function main() {
  rmSync(artifacts, { recursive: true, force: true });
  mkdirSync(artifacts, { recursive: true });
  const deadline = setTimeout(() => {
    console.error(`browser tests: over ${TOTAL_SECONDS}s, stopping`);
    console.log('0 passed, 1 failed');
    process.exit(1);
  }, TOTAL_SECONDS * 1000);
  const { proc, url } = await startServer(binary);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  let passed = 0, failed = 0;
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(10000);
    const consoleErrors = [];
    page.on('pageerror', (e) => consoleErrors.push(String(e)));
    page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
    page.on('dialog', (d) => d.accept());
    const ctx = { page, url, browser, binary };
    let broken = null;
    for (const [i, step] of steps.entries()) {
      const name = `${String(i + 1).padStart(2, '0')}-${step.name}`;
      if (broken) {
        console.log(`not ok ${name} (skipped: ${broken} failed)`);
        failed++;
        continue;
      }
      const started = Date.now();
      try {
        await step.run(ctx);
        if (consoleErrors.length) throw new Error(`errors in the page: ${consoleErrors.join(' | ')}`);
        console.log(`ok ${name} (${Date.now() - started} ms)`);
        passed++;
      } catch (e) {
        console.log(`not ok ${name}: ${e.message.split('\n').slice(0, 6).join('\n    ')}`);
        failed++;
        broken = name;
      } finally {
        await page.screenshot({ path: join(artifacts, `${name}.png`), fullPage: step.fullPage ?? false }).catch(() => {});
      }
    }
  } finally {
    await browser.close();
    proc.kill('SIGTERM');
    clearTimeout(deadline);
  }
  console.log(`screenshots: ${artifacts}`);
  console.log(`${passed} passed, ${failed} failed`);
  process.exitCode = failed ? 1 : 0;
}

main().catch((e) => {
  console.error(e);
  console.log('0 passed, 1 failed');
  process.exit(1);
});
