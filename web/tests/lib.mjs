// Helpers for the browser tests: a server on a free port with a fresh database, Debian's
// chromium through playwright-core, and the steps a player takes in the UI.
//
//   import { startServer, launchBrowser, newPlayer, createTable, playToEnd } from './lib.mjs';
//
// Environment: TAKUGE_BIN (default <repo>/target/debug/takuge), CHROMIUM (default
// /usr/bin/chromium), TAKUGE_TEST_SEED (the seed of playToEnd's random clicks; default 1).
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { before, after } from 'node:test';
import { chromium } from 'playwright-core';

export const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const resultsDir = join(repo, 'web', 'test-results');

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export async function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

// Start `takuge serve` on a free port with a fresh SQLite database. Pass {db, port} to
// restart on the same database (reconnect tests).
export async function startServer(opts = {}) {
  const bin = process.env.TAKUGE_BIN || join(repo, 'target', 'debug', 'takuge');
  const dir = opts.dir || mkdtempSync(join(tmpdir(), 'takuge-web-'));
  const db = opts.db || join(dir, 'test.db');
  const port = opts.port || (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(bin, ['serve', '--bind', `127.0.0.1:${port}`, '--database-url', `sqlite://${db}`], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, RUST_LOG: process.env.RUST_LOG || 'warn' },
  });
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr = (stderr + d.toString()).slice(-4000);
  });
  let exited = false;
  // A test that fails before stop() must not leave a server behind or keep node waiting.
  const killOnExit = () => child.kill('SIGKILL');
  process.on('exit', killOnExit);
  child.on('exit', () => {
    exited = true;
    process.off('exit', killOnExit);
  });
  child.unref();
  child.stderr.unref();
  const deadline = Date.now() + 20000;
  for (;;) {
    if (exited) throw new Error(`takuge serve exited: ${stderr}`);
    try {
      const res = await fetch(url + '/healthz');
      if (res.ok) break;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`takuge serve did not start: ${stderr}`);
    }
    await sleep(100);
  }
  return {
    url,
    port,
    db,
    dir,
    // Graceful stop (SIGTERM); the database stays for a restart until `cleanup`.
    async stop() {
      if (exited) return;
      child.kill('SIGTERM');
      for (let i = 0; i < 100 && !exited; i++) await sleep(50);
      if (!exited) child.kill('SIGKILL');
    },
    cleanup() {
      if (!opts.dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

// playwright-core gives every launch a fresh temporary profile of its own (it refuses an
// explicit --user-data-dir), which is the fresh --user-data-dir the tests need.
export async function launchBrowser() {
  const executablePath = process.env.CHROMIUM || '/usr/bin/chromium';
  try {
    return await launchChromium(executablePath);
  } catch (e) {
    throw new Error(`chromium (${executablePath}) did not start, so no browser test can run; install Debian's chromium or set CHROMIUM.\n${e.message}`);
  }
}

function launchChromium(executablePath) {
  return chromium.launch({
    executablePath,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

let nameCounter = 0;
// One server and one browser for a whole test file: started before its first test,
// closed (and the server's data removed) after its last. `started` receives
// `{ server, browser }` once both are up.
export function useServerAndBrowser(started, serverOptions = {}) {
  let server;
  let browser;
  before(async () => {
    server = await startServer(serverOptions);
    browser = await launchBrowser();
    started({ server, browser });
  });
  after(async () => {
    if (browser) await browser.close();
    if (server) {
      await server.stop();
      server.cleanup();
    }
  });
}

export function uniqueName(prefix = 'p') {
  nameCounter += 1;
  return `${prefix}${process.pid}_${nameCounter}_${Math.floor(Math.random() * 1e6)}`.slice(0, 32);
}

// Wait until the shell has drawn its header (the app booted and knows who we are).
export async function waitReady(page) {
  await page.waitForSelector('#header nav');
}

// A fresh context whose pages start in `lang` (stored before the first load unless the
// page changed it since); `plainBoards` draws every game with the shell's fallback board.
export async function newContext(browser, { lang = 'en', viewport, plainBoards = false } = {}) {
  const context = await browser.newContext({ viewport: viewport || { width: 1280, height: 900 } });
  await context.addInitScript(
    ({ l, plain }) => {
      try {
        if (!localStorage.getItem('takuge.lang')) localStorage.setItem('takuge.lang', l);
        if (plain) localStorage.setItem('takuge.plainBoards', '1');
      } catch {
        // about:blank has no storage
      }
    },
    { l: lang, plain: plainBoards },
  );
  return context;
}

// A new browser context, signed up through the UI under a unique name. `lang` is stored
// before the first page load ('en' by default, so texts are predictable).
export async function newPlayer(browser, url, { lang = 'en', name, password = 'correct horse 7', viewport, plainBoards = false } = {}) {
  const context = await newContext(browser, { lang, viewport, plainBoards });
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error('[pageerror]', e.message));
  const user = name || uniqueName();
  await page.goto(url + '/login');
  await page.fill('[data-form=register] input[name=name]', user);
  await page.fill('[data-form=register] input[name=password]', password);
  await page.click('[data-form=register] button[type=submit]');
  await page.waitForSelector('[data-form=create]');
  page.takugeName = user;
  page.takugeUrl = url;
  return page;
}

// A guest through the UI.
export async function newGuest(browser, url, { lang = 'en', viewport, plainBoards = false } = {}) {
  const context = await newContext(browser, { lang, viewport, plainBoards });
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error('[pageerror]', e.message));
  await page.goto(url + '/login');
  await page.click('[data-action=guest]');
  await page.waitForSelector('[data-form=create]');
  page.takugeUrl = url;
  return page;
}

// Create a table through the lobby form. `options` maps option keys to values (matched
// against the form's choices by JSON). With bots, every empty seat gets the game's first
// bot; with start, the game is started and the first state drawn. Returns the table id.
export async function createTable(page, { game, players, options = {}, bots = true, start = true, private: priv = false, clock } = {}) {
  if (!page.url().endsWith('/') || !(await page.$('[data-form=create]'))) {
    await page.goto(new URL('/', page.url()).toString());
  }
  await page.waitForSelector('[data-form=create]');
  await page.selectOption('[data-create=game]', game);
  await page.waitForFunction((n) => [...document.querySelectorAll('[data-create=players] option')].some((o) => o.value === String(n)), players);
  await page.selectOption('[data-create=players]', String(players));
  // The option fields are drawn asynchronously (the board module may describe them, and
  // by player count): wait for the ones of this game and count, not the previous ones.
  await page.waitForSelector(`[data-create=options][data-fields-for="${game}:${players}"]`, { state: 'attached' });
  for (const [key, value] of Object.entries(options)) {
    const idx = await page.evaluate(
      ({ key, value }) => {
        const sel = document.querySelector(`[data-option="${key}"]`);
        if (!sel) return null;
        return sel.dataset.values ? JSON.parse(sel.dataset.values).findIndex((v) => JSON.stringify(v) === JSON.stringify(value)) : null;
      },
      { key, value },
    );
    if (idx === null || idx < 0) throw new Error(`option ${key}=${JSON.stringify(value)} is not offered`);
    await page.selectOption(`[data-option="${key}"]`, String(idx));
  }
  if (priv) await page.check('[data-create=private]');
  if (clock) {
    await page.selectOption('[data-create=clock]', clock.kind);
    if (clock.kind === 'real_time') {
      await page.fill('input[name=per_move]', String(clock.per_move_seconds));
      await page.fill('input[name=reserve]', String(clock.reserve_seconds));
    }
    if (clock.kind === 'turn_based') await page.fill('input[name=hours]', String(clock.hours_per_move));
  }
  await page.click('[data-create=submit]');
  await page.waitForURL(/\/t\/\d+/);
  const tableId = Number(new URL(page.url()).pathname.split('/')[2]);
  await page.waitForSelector('[data-status]');
  if (bots) {
    await page.click('[data-fill-bots]');
    await page.waitForSelector('[data-start]:not([disabled])');
  }
  if (start) {
    await page.click('[data-start]');
    await waitSettled(page);
    await page.waitForFunction(() => document.body.dataset.status && document.body.dataset.status !== 'open');
  }
  return tableId;
}

// Take a seat at a table through the UI (the first free seat). For a private table pass
// the invite link's query: joinTable(page, id, {invite}).
export async function joinTable(page, tableId, { invite, seat } = {}) {
  const base = page.takugeUrl || new URL(page.url()).origin;
  await page.goto(`${base}/t/${tableId}${invite ? '?invite=' + encodeURIComponent(invite) : ''}`);
  const sel = seat === undefined ? '[data-sit]' : `[data-sit="${seat}"]`;
  await page.waitForSelector(sel);
  await page.click(sel);
  await page.waitForSelector('[data-leave]');
}

// The invite link shown on the table page.
export async function inviteLink(page) {
  return page.inputValue('[data-invite]');
}

// Wait until the page shows a settled table state: a table message drawn, no act in flight.
export async function waitSettled(page, timeout = 30000) {
  await page.waitForFunction(() => document.body.dataset.version !== undefined && document.body.dataset.busy === undefined, null, { timeout });
}

// A seeded Math.random replacement (mulberry32): the same seed clicks the same buttons.
export function seededRandom(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Play by clicking random enabled [data-choice] buttons until [data-outcome] shows. After
// each click waits for the page to react: a local step redraws the board (renders counter),
// a send waits for its ack. onStep(page, i) runs before every click. Returns the clicks made.
// The choice is made inside the page (one round trip per click, not one per button), and
// clicked by playwright as a user would.
export async function playToEnd(page, { maxClicks = 2000, seed = Number(process.env.TAKUGE_TEST_SEED || 1), onStep, timeout = 60000 } = {}) {
  const random = seededRandom(seed);
  let clicks = 0;
  for (;;) {
    // Either our move (a choice to click), or the end.
    await page.waitForFunction(
      () => {
        if (document.body.dataset.busy !== undefined) return false;
        if (document.querySelector('[data-outcome]')) return true;
        const seen = (b) => (b.checkVisibility ? b.checkVisibility({ visibilityProperty: true }) : b.offsetParent !== null);
        return [...document.querySelectorAll('[data-choice]')].some((b) => !b.disabled && seen(b));
      },
      null,
      { timeout, polling: 50 },
    );
    if (onStep && !(await page.$('[data-outcome]'))) await onStep(page, clicks);
    const picked = await page.evaluate((r) => {
      if (document.querySelector('[data-outcome]')) return { done: true };
      for (const old of document.querySelectorAll('[data-test-pick]')) old.removeAttribute('data-test-pick');
      const seen = (b) => (b.checkVisibility ? b.checkVisibility({ visibilityProperty: true }) : b.offsetParent !== null);
      const choices = [...document.querySelectorAll('[data-choice]')].filter((b) => !b.disabled && seen(b));
      if (choices.length === 0) return { none: true };
      choices[Math.floor(r * choices.length)].setAttribute('data-test-pick', '');
      return { renders: Number(document.body.dataset.renders || 0) };
    }, random());
    if (picked.done) return clicks;
    if (picked.none) continue;
    if (clicks >= maxClicks) throw new Error(`no outcome after ${clicks} clicks`);
    try {
      await page.click('[data-test-pick]', { timeout: 5000 });
    } catch {
      // The board was redrawn under us (a new state arrived): choose again.
      continue;
    }
    clicks += 1;
    await page.waitForFunction((r) => document.body.dataset.busy === undefined && Number(document.body.dataset.renders || 0) > r, picked.renders, { timeout, polling: 50 });
  }
}

export async function screenshot(page, name) {
  mkdirSync(resultsDir, { recursive: true });
  await page.screenshot({ path: join(resultsDir, `${name}.png`), fullPage: true });
}
