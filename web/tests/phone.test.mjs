// A phone (390×844), issue 21 item 5: no page of the site scrolls sideways — the lobby,
// the login, the shelf, every rules page and a table of every game in play — in English and
// Japanese (`document.documentElement.scrollWidth <= innerWidth`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, newPlayer, createTable, playToEnd, waitSettled } from './lib.mjs';

let srv;
let browser;

useServerAndBrowser((started) => ({ server: srv, browser } = started));

const PHONE = { width: 390, height: 844 };
const GAMES = [
  ['secret-moon', 5],
  ['ghost-for-sale', 4],
  ['art-heist', 5],
  ['ghost-at-home', 3],
  ['bitoku', 2],
];

// The page's overflow, and the widest element that sticks out (to say what to fix).
async function overflow(page) {
  return page.evaluate(() => {
    const w = window.innerWidth;
    const sw = document.documentElement.scrollWidth;
    let worst = null;
    if (sw > w) {
      for (const el of document.querySelectorAll('body *')) {
        const r = el.getBoundingClientRect();
        if (r.right > w + 1 && (!worst || r.right > worst.right)) worst = { right: Math.round(r.right), what: el.tagName.toLowerCase() + (el.className && typeof el.className === 'string' ? '.' + el.className.split(' ').join('.') : '') };
      }
    }
    return { sw, w, worst };
  });
}

// A table page is settled when its state is drawn and no send is in flight; the other
// pages (lobby, rules, shelf, profile) draw no table state, so waiting for one there would
// only run into the timeout: they are measured once their requests are answered.
async function fits(page, where, { table = false } = {}) {
  if (table) await waitSettled(page);
  else await page.waitForLoadState('networkidle');
  const o = await overflow(page);
  assert.ok(o.sw <= o.w, `${where}: the page is ${o.sw} px wide on a ${o.w} px screen (${JSON.stringify(o.worst)})`);
}

for (const lang of ['en', 'ja']) {
  test(`no page scrolls sideways on a 390 px phone (${lang})`, async () => {
    const page = await newPlayer(browser, srv.url, { lang, viewport: PHONE });
    await fits(page, 'lobby');
    for (const path of ['/rules', ...GAMES.map(([g]) => '/rules/' + g), '/shelf']) {
      await page.goto(srv.url + path);
      await page.waitForSelector('main');
      await fits(page, path);
    }
    for (const [game, players] of GAMES) {
      await page.goto(srv.url + '/');
      await createTable(page, { game, players });
      await fits(page, `${game} at the start`, { table: true });
      // Some way into the game: the boards grow as it goes.
      try {
        await playToEnd(page, { maxClicks: 12, seed: 5 });
      } catch (e) {
        if (!/no outcome after/.test(String(e && e.message))) throw e;
      }
      await fits(page, `${game} after a few moves`, { table: true });
    }
    // The profile, with tables in play and maybe waiting (issue 21).
    await page.goto(srv.url + '/profile');
    await page.waitForSelector('[data-waiting-card]');
    await fits(page, '/profile');
    await page.context().close();
  });
}

// Where an element is on the screen, with the page scrolled to its top: inside the
// window without scrolling means 0 <= top and bottom <= innerHeight.
async function inView(page, selector) {
  return page.evaluate((sel) => {
    window.scrollTo(0, 0);
    const el = [...document.querySelectorAll(sel)].find((e) => e.offsetParent !== null || getComputedStyle(e).position === 'fixed');
    if (!el) return null;
    const r = el.getBoundingClientRect();
    return { top: Math.round(r.top), bottom: Math.round(r.bottom), h: window.innerHeight, ok: r.top >= 0 && r.bottom <= window.innerHeight + 0.5 && r.height > 0, text: el.textContent.slice(0, 60) };
  }, selector);
}

// The game's action area (the board's [data-actions], docked by the shell on a phone) and
// its buttons stay on screen while the page is at its top, the table being much taller
// than the screen; for a board where one acts by clicking the pieces (art-heist's cards),
// the confirm button that a choice brings. The log is a drawer: hidden, opened by its
// button, closed by Escape. Issue 21 item 5.
const CHOICE = '[data-board] [data-actions] button[data-choice]:not([disabled])';
test('on a phone the action area stays on screen and the log is a drawer (every game)', async () => {
  const page = await newPlayer(browser, srv.url, { lang: 'en', viewport: PHONE });
  for (const [game, players] of GAMES) {
    await page.goto(srv.url + '/');
    await createTable(page, { game, players });
    await waitSettled(page);
    // Until this seat is asked something with a button in the action area: the first
    // choice on the board otherwise (a card to play, a die), as a player would.
    let found = null;
    for (let i = 0; i < 25 && !found; i++) {
      await page.waitForSelector('[data-your-turn], [data-outcome]', { timeout: 60000 });
      await waitSettled(page);
      if (await page.$('[data-outcome]')) break;
      const tall = await page.evaluate(() => document.documentElement.scrollHeight);
      assert.ok(tall > 844, `${game}: the table is taller than the screen (${tall} px), or this test shows nothing`);
      const area = await inView(page, '[data-board] [data-actions]');
      // (art-heist draws its confirm area only once a card is chosen)
      if (area) assert.ok(area.ok, `${game}: the action area is on screen at the page's top: ${JSON.stringify(area)}`);
      // Ghost at Home has no confirm button: the chosen cards go where one clicks on the
      // house itself; its docked prompt (what to do now, the replies) is what stays in reach.
      if (game === 'ghost-at-home' && area) {
        found = area;
        break;
      }
      if (await page.$(CHOICE)) {
        found = await inView(page, CHOICE);
        break;
      }
      const before = await page.evaluate(() => document.body.dataset.renders);
      const pieces = await page.$$('[data-board] [data-choice]:not([disabled])');
      assert.ok(pieces.length, `${game}: something to click on this seat's turn`);
      await pieces[0].click();
      await page.waitForFunction((b) => document.body.dataset.renders !== b, before);
    }
    assert.ok(found, `${game}: a button in the action area on this seat's turn`);
    assert.ok(found.ok, `${game}: its button "${found.text}" is on screen without scrolling: ${JSON.stringify(found)}`);
    await fits(page, `${game} with the action area docked`, { table: true });

    // The log drawer.
    assert.equal(await page.isVisible('[data-log]'), false, `${game}: the log is hidden on a phone`);
    const toggle = page.locator('[data-log-toggle]');
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    assert.ok(await inView(page, '[data-log-toggle]').then((r) => r && r.ok), `${game}: the log button is on screen`);
    await toggle.click();
    assert.equal(await page.isVisible('[data-log]'), true, `${game}: the log shows once its button is clicked`);
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
    assert.ok(await page.evaluate(() => document.querySelector('[data-log-drawer]').contains(document.activeElement)), `${game}: focus moves into the drawer`);
    assert.ok(await inView(page, '[data-log]').then((r) => r && r.ok), `${game}: the open log is on screen`);
    await page.keyboard.press('Escape');
    assert.equal(await page.isVisible('[data-log]'), false, `${game}: Escape closes the log`);
    assert.equal(await toggle.getAttribute('aria-expanded'), 'false');
    assert.ok(await page.evaluate(() => document.activeElement && document.activeElement.hasAttribute('data-log-toggle')), `${game}: focus returns to the log button`);
    // And its close button.
    await toggle.click();
    await page.click('[data-log-close]');
    assert.equal(await page.isVisible('[data-log]'), false, `${game}: the close button closes the log`);
  }
  await page.context().close();
});

// A desktop screen keeps the side column's log and draws no dock.
test('at 1366×768 the log stays in the side column and there is no dock', async () => {
  const page = await newPlayer(browser, srv.url, { lang: 'ja', viewport: { width: 1366, height: 768 } });
  await createTable(page, { game: 'art-heist', players: 5 });
  await waitSettled(page);
  assert.equal(await page.isVisible('[data-log]'), true);
  assert.equal(await page.isVisible('[data-phone-dock]'), false);
  assert.equal(await page.isVisible('[data-log-toggle]'), false);
  const pos = await page.evaluate(() => getComputedStyle(document.querySelector('[data-board] [data-actions]') || document.body).position);
  assert.notEqual(pos, 'fixed');
  await page.context().close();
});
