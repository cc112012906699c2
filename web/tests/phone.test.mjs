// A phone (390×844), issue 21 item 5: no page of the site scrolls sideways — the lobby,
// the login, the shelf, every rules page and a table of every game in play — in English and
// Japanese (`document.documentElement.scrollWidth <= innerWidth`).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, newPlayer, createTable, playToEnd, waitSettled } from './lib.mjs';

let srv;
let browser;

before(async () => {
  srv = await startServer();
  browser = await launchBrowser();
});

after(async () => {
  if (browser) await browser.close();
  if (srv) {
    await srv.stop();
    srv.cleanup();
  }
});

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

async function fits(page, where) {
  await waitSettled(page).catch(() => {});
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
      await fits(page, `${game} at the start`);
      // Some way into the game: the boards grow as it goes.
      try {
        await playToEnd(page, { maxClicks: 12, seed: 5 });
      } catch (e) {
        if (!/no outcome after/.test(String(e && e.message))) throw e;
      }
      await fits(page, `${game} after a few moves`);
    }
    // The profile, with tables in play and maybe waiting (issue 21).
    await page.goto(srv.url + '/profile');
    await page.waitForSelector('[data-waiting-card]');
    await fits(page, '/profile');
    await page.context().close();
  });
}
