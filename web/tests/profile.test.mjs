// The profile (issue 21, items 1 and 6): the history follows the account into another
// browser, the display name, the tables waiting for one's move, and the "your turn"
// alerts (sound remembered, the notification permission asked once from a click, a
// notification while the tab is hidden) through the notifier wrapper, stubbed here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { useServerAndBrowser, newContext, newPlayer, createTable, joinTable, playToEnd, screenshot, waitSettled } from './lib.mjs';

// The screenshots in docs/WEB.md: written to docs/img only when asked
// (TAKUGE_DOCS_SCREENSHOTS=1), so that a test run leaves the tracked files alone.
const here = dirname(fileURLToPath(import.meta.url));
const docsImg = process.env.TAKUGE_DOCS_SCREENSHOTS === '1' ? join(here, '..', '..', 'docs', 'img') : join(here, '..', 'test-results', 'docs');

let server;
let browser;

useServerAndBrowser((started) => ({ server, browser } = started));

// The same account, logged in from a fresh browser context (nothing in its storage).
async function logIn(name, { viewport, plainBoards = true, stub = false } = {}) {
  const context = await newContext(browser, { viewport, plainBoards });
  if (stub) await context.addInitScript(stubNotifier);
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error('[pageerror]', e.message));
  await page.goto(server.url + '/login');
  await page.fill('[data-form=login] input[name=name]', name);
  await page.fill('[data-form=login] input[name=password]', 'correct horse 7');
  await page.click('[data-form=login] button[type=submit]');
  await page.waitForSelector('[data-form=create]');
  return page;
}

// The notifier's stub (notify.js reads window.takugeTestNotifier as it loads): counts
// permission requests, notifications and sounds; the permission lives in localStorage so
// that it outlasts a reload, as the browser's would.
function stubNotifier() {
  const count = (k) => localStorage.setItem(k, String(Number(localStorage.getItem(k) || 0) + 1));
  window.takugeTestNotifier = {
    supported: () => true,
    permission: () => localStorage.getItem('test.permission') || 'default',
    request: async () => {
      count('test.asks');
      const answer = localStorage.getItem('test.answer') || 'granted';
      localStorage.setItem('test.permission', answer === 'dismiss' ? 'default' : answer);
      return answer === 'dismiss' ? 'default' : answer;
    },
    hidden: () => true,
    show: () => count('test.shown'),
    beep: () => count('test.beeps'),
  };
}
const counter = (page, k) => page.evaluate((key) => Number(localStorage.getItem(key) || 0), k);

test('the history follows the account: a second browser sees the game in play, then finished, with a working replay', async () => {
  const a = await newPlayer(browser, server.url, { plainBoards: true });
  const name = a.takugeName;
  const id = await createTable(a, { game: 'ghost-at-home', players: 2 });
  await playToEnd(a, { maxClicks: 3 }).catch(() => {});

  // Another browser, the same account: no local storage, the server's history.
  const b = await logIn(name, { viewport: { width: 1366, height: 768 } });
  await b.waitForSelector(`[data-my-tables] [data-table="${id}"]`);
  await b.goto(server.url + '/profile');
  await b.waitForSelector(`[data-profile-tables] [data-table="${id}"][data-status=playing]`);

  await playToEnd(a, { maxClicks: 400 });
  // Another game under way (for the screenshots: a table in play, maybe waiting for a move).
  const live = await createTable(a, { game: 'ghost-at-home', players: 2 });
  await waitSettled(a);
  await b.reload();
  await b.waitForSelector('[data-profile-finished]');
  assert.equal(await b.locator(`[data-profile-tables] [data-table="${id}"]`).count(), 0, 'no longer in play');
  await b.waitForSelector(`[data-profile-finished] a[href="/replay/${id}"]`);
  await b.waitForSelector(`[data-profile-tables] [data-table="${live}"]`);
  assert.equal(await b.textContent('[data-stat="ghost-at-home"] [data-played]'), '1');
  const won = await b.locator('[data-results-plot] circle[data-result=won]').count();
  assert.equal(await b.textContent('[data-stat="ghost-at-home"] [data-won]'), String(won));
  assert.equal(await b.locator('[data-results-plot] circle').count(), 1);
  assert.match(await b.textContent('[data-stat="ghost-at-home"] [data-by-seat]'), /seat 1: [01]\/1/);

  // A display name in Japanese: the header, the lobby and the table show it.
  await b.fill('[data-form=display-name] input[name=display_name]', 'たくげ 花子');
  await b.click('[data-form=display-name] button[type=submit]');
  await b.waitForSelector('[data-form=display-name] [data-saved]:not(:empty)');
  assert.equal(await b.textContent('[data-profile-name]'), 'たくげ 花子');
  assert.equal(await b.textContent('#header .me'), 'たくげ 花子');
  await screenshot(b, 'profile');
  mkdirSync(docsImg, { recursive: true });
  await b.screenshot({ path: join(docsImg, 'profile.png') });
  // A refused name says why and changes nothing.
  await b.fill('[data-form=display-name] input[name=display_name]', 'evil\u202Ecba');
  await b.click('[data-form=display-name] button[type=submit]');
  await b.waitForSelector('[data-form=display-name] [data-error]:not([hidden])');
  assert.match(await b.textContent('[data-form=display-name] [data-error]'), /display name/i);
  const me = await b.evaluate(() => fetch('/api/me').then((r) => r.json()));
  assert.equal(me.display_name, 'たくげ 花子');
  assert.equal(me.name, name);

  // In Japanese.
  await b.click('[data-lang=ja]');
  await b.waitForFunction(() => /あなたの番の卓/.test(document.querySelector('[data-waiting-card] h2')?.textContent || ''));
  assert.match(await b.textContent('[data-stat="ghost-at-home"] [data-by-seat]'), /1番席：[01]\/1/);
  assert.match(await b.textContent('[data-profile-stats] thead'), /勝率/);
  await b.click('[data-lang=en]');
  await b.waitForFunction(() => /Tables waiting for you/.test(document.querySelector('[data-waiting-card] h2')?.textContent || ''));

  // The replay link works in this browser.
  await b.click(`[data-profile-finished] a[href="/replay/${id}"]`);
  await b.waitForSelector('[data-replay-forward]');
  assert.ok((await b.evaluate(() => document.body.dataset.replayStep)) !== undefined);

  // A new table shows the display name as its host, in the lobby of another player.
  const open = await createTable(b, { game: 'ghost-at-home', players: 2, bots: false, start: false });
  // The seating shows who sits where by display name.
  await b.waitForFunction(() => document.querySelector('#main').textContent.includes('たくげ 花子'));
  const c = await newPlayer(browser, server.url, { plainBoards: true, viewport: { width: 1366, height: 768 } });
  await c.waitForSelector(`[data-lobby] [data-table="${open}"] [data-host]`);
  assert.match(await c.textContent(`[data-lobby] [data-table="${open}"] [data-host]`), /たくげ 花子/);
  await c.waitForSelector(`[data-lobby-playing] [data-table="${live}"]`);
  await c.screenshot({ path: join(docsImg, 'lobby.png') });
  for (const p of [a, b, c]) await p.context().close();
});

test('tables waiting for you: the table where it is your move, not one where it is not', async () => {
  const a = await newPlayer(browser, server.url, { plainBoards: true });
  const c = await newPlayer(browser, server.url, { plainBoards: true });
  const id = await createTable(a, { game: 'ghost-at-home', players: 2, bots: false, start: false });
  await joinTable(c, id);
  await a.waitForSelector('[data-start]:not([disabled])');
  await a.click('[data-start]');
  await waitSettled(a);
  await c.waitForFunction(() => document.body.dataset.status === 'playing');
  await waitSettled(c);
  // A table still open waits for nobody's move.
  const open = await createTable(a, { game: 'ghost-at-home', players: 2, bots: false, start: false });

  const yours = {};
  for (const [who, p] of [
    ['a', a],
    ['c', c],
  ]) {
    await p.goto(server.url + '/t/' + id);
    await waitSettled(p);
    yours[who] = (await p.locator('[data-your-turn]').count()) > 0;
    await p.goto(server.url + '/profile');
    await p.waitForSelector('[data-waiting-card]');
    const listed = (await p.locator(`[data-waiting] [data-table="${id}"]`).count()) > 0;
    assert.equal(listed, yours[who], `${who}: listed as waiting exactly when it is its move`);
    assert.equal(await p.locator(`[data-waiting] [data-table="${open}"]`).count(), 0, 'an open table waits for nobody');
    await p.waitForSelector(`[data-profile-tables] [data-table="${id}"]`);
  }
  assert.ok(yours.a || yours.c, 'somebody is to move');
  // Whoever is to move moves; the list follows.
  const mover = yours.a ? a : c;
  await mover.goto(server.url + '/t/' + id);
  await waitSettled(mover);
  await playToEnd(mover, { maxClicks: 1 }).catch(() => {});
  await waitSettled(mover);
  const still = (await mover.locator('[data-your-turn]').count()) > 0;
  await mover.goto(server.url + '/profile');
  await mover.waitForSelector('[data-waiting-card]');
  assert.equal((await mover.locator(`[data-waiting] [data-table="${id}"]`).count()) > 0, still);
  await a.context().close();
  await c.context().close();
});

test('your turn when away: the sound is off until switched on and remembered; the permission is asked once, from a click; a hidden tab is notified', async () => {
  const reg = await newPlayer(browser, server.url, { plainBoards: true });
  const name = reg.takugeName;
  await reg.context().close();
  const p = await logIn(name, { stub: true });
  await p.goto(server.url + '/profile');
  await p.waitForSelector('[data-alert-settings]');
  assert.equal(await p.isChecked('[data-sound-toggle]'), false, 'the sound is off by default');
  assert.equal(await p.isChecked('[data-notify-toggle]'), false);
  assert.equal(await counter(p, 'test.asks'), 0, 'no permission asked on page load');
  await p.check('[data-sound-toggle]');
  await p.click('[data-notify-toggle]');
  await p.waitForFunction(() => document.querySelector('[data-notify-toggle]').checked);
  assert.equal(await counter(p, 'test.asks'), 1);
  await p.reload();
  await p.waitForSelector('[data-alert-settings]');
  assert.equal(await p.isChecked('[data-sound-toggle]'), true, 'the sound is remembered');
  assert.equal(await p.isChecked('[data-notify-toggle]'), true, 'so are the notifications');
  assert.equal(await counter(p, 'test.asks'), 1, 'and nothing was asked again');

  // Against a bot: each time the move comes back, a sound and (the tab "hidden") a notification.
  const beeps = await counter(p, 'test.beeps');
  await createTable(p, { game: 'ghost-at-home', players: 2 });
  await p.waitForSelector('[data-table-alerts], .table-alerts [data-sound-toggle]');
  await playToEnd(p, { maxClicks: 6 }).catch(() => {});
  await p.waitForFunction(() => Number(localStorage.getItem('test.shown') || 0) > 0, null, { timeout: 20000 });
  assert.ok((await counter(p, 'test.beeps')) > beeps, 'a sound when the move came back');
  await p.context().close();

  // A prompt dismissed once is not shown again: the switch says how to allow it instead.
  const q = await logIn(name, { stub: true });
  await q.evaluate(() => localStorage.setItem('test.answer', 'dismiss'));
  await q.goto(server.url + '/profile');
  await q.waitForSelector('[data-alert-settings]');
  await q.click('[data-notify-toggle]');
  await q.waitForFunction(() => localStorage.getItem('test.asks') === '1');
  await q.waitForFunction(() => !document.querySelector('[data-notify-toggle]').checked);
  await q.click('[data-notify-toggle]');
  await q.waitForSelector('[data-notify-note]:not(:empty)');
  assert.equal(await counter(q, 'test.asks'), 1, 'asked once');
  await q.context().close();
});
