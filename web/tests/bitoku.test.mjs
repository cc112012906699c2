// Bitoku (美徳) in a real browser: whole games by clicking the board (two players, and solo
// against the Tengu), a phone screen in both languages, and the rules page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, newPlayer, createTable, playToEnd, screenshot, waitSettled } from './lib.mjs';

const GAME = 'bitoku';
const PHONE = { width: 390, height: 844 };
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

// A table of `players` with this page's player in seat 1 and the rule bot in the others
// (the quick one: the search bots think for longer), started.
async function startTable(page, players) {
  const id = await createTable(page, { game: GAME, players, bots: false, start: false });
  if (players > 1) {
    await page.selectOption('[data-bot-select]', 'rule');
    await page.click('[data-fill-bots]');
  }
  await page.waitForSelector('[data-start]:not([disabled])');
  await page.click('[data-start]');
  await waitSettled(page);
  await page.waitForSelector('.bk-board');
  return id;
}

const year = (page) => page.$eval('.bk-board .bk-year', (el) => el.textContent);

// 「得点の計算終了時に「美徳点」が最も高いプレイヤーが勝利者となる」: four years and the Awakening,
// played to the result only by clicking the Bitoku board (no fallback buttons).
test('two players: a person plays a whole game against the rule bot by clicking the board', async () => {
  const page = await newPlayer(browser, srv.url);
  await startTable(page, 2);
  assert.ok(await page.$('.bk-board .bk-forest .bk-region'), 'the Bitoku board is drawn, not the fallback');
  assert.equal(await page.$('.fallback-board'), null);
  let shot = false;
  const clicks = await playToEnd(page, {
    maxClicks: 3000,
    seed: 3,
    onStep: async (p) => {
      if (!shot && (await p.$('.bk-die-slot.choosable'))) {
        await screenshot(p, 'bitoku');
        shot = true;
      }
    },
  });
  assert.ok(clicks > 20, `a whole game takes many decisions (${clicks})`);
  await page.waitForSelector('[data-outcome]');
  await page.waitForFunction(() => document.querySelector('.bk-board')?.dataset.phase === 'Over');
  const scores = await page.$$eval('.bk-player .bk-vp', (els) => els.map((e) => Number(e.dataset.virtue)));
  assert.equal(scores.length, 2);
  assert.ok(scores.some((s) => s > 0), 'virtue points were scored');
  await page.context().close();
});

// Solo (1 player, docs/games/bitoku.md "Solo"): the Tengu places dice and moves kodama after
// each summer action, and the final score earns a title.
test('solo: a whole game against the Tengu by clicking, ending with a title', async () => {
  const page = await newPlayer(browser, srv.url);
  await startTable(page, 1);
  assert.ok(await page.$('[data-tengu]'), 'the Tengu is on the board');
  let tenguDie = false;
  await playToEnd(page, {
    maxClicks: 3000,
    seed: 5,
    onStep: async (p) => {
      if (!tenguDie) tenguDie = !!(await p.$('.bk-region .bk-die.seat-7'));
    },
  });
  assert.ok(tenguDie, 'the Tengu placed dice in the forest');
  await page.waitForSelector('[data-outcome]');
  const title = await page.textContent('[data-solo-title]');
  assert.match(title, /Lost child|Pilgrim|Guardian|Sage of the forest|Friend of the Great Spirit/);
  await screenshot(page, 'bitoku-solo-end');
  await page.context().close();
});

// No sideways scrolling on a phone, in both languages: the table (with the choices on
// screen and clickable) and the rules page.
for (const lang of ['ja', 'en']) {
  test(`a phone (390×844, ${lang}): the table and the rules page fit the width`, async () => {
    const page = await newPlayer(browser, srv.url, { lang, viewport: PHONE });
    await startTable(page, 1);
    await page.waitForSelector('.bk-panel.yours [data-choice], .bk-board [data-choice]');
    const fits = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok((await fits()) <= 0, `the table scrolls sideways by ${await fits()}px`);
    // The choices are reachable: every one lies within the screen's width.
    const outside = await page.$$eval('[data-choice]', (els) => els.filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1).length);
    assert.equal(outside, 0, 'no choice lies beyond the right edge');
    // A few moves on, mid-summer with dice picked, it still fits.
    await playToEnd(page, {
      maxClicks: 25,
      seed: 11,
      onStep: async (p, i) => {
        const over = await p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        assert.ok(over <= 0, `step ${i}: the table scrolls sideways by ${over}px`);
        if (i === 24) throw Object.assign(new Error('enough'), { enough: true });
      },
    }).catch((e) => {
      if (!e.enough && !/no outcome after/.test(e.message)) throw e;
    });
    const words = lang === 'ja' ? ['森エリア', '光の丘', '大精霊の住み家', '美徳の道'] : ['The forest', 'The hills of light', "The Great Spirit's abode", 'The path of virtue'];
    const text = await page.textContent('.bk-board');
    for (const w of words) assert.ok(text.includes(w), `shows ${w}`);
    await screenshot(page, `bitoku-phone-${lang}`);

    await page.goto(`${srv.url}/rules/bitoku`);
    await page.waitForSelector('[data-rules=bitoku] .bk-rules');
    assert.ok((await fits()) <= 0, `the rules page scrolls sideways by ${await fits()}px`);
    await page.context().close();
  });
}

// /rules/bitoku: the game's own rules page, in the reader's language.
test('/rules/bitoku shows the rules in Japanese and in English', async () => {
  for (const [lang, heading, words] of [
    ['ja', '美徳 — 遊び方', ['春(森の目覚め)', '夏(守護者への呼びかけ)', '覚醒', '天狗', '川を渡る']],
    ['en', 'Bitoku — how to play', ['Spring (the forest wakes)', 'Cross the river', 'The Awakening', 'the Tengu']],
  ]) {
    const page = await newPlayer(browser, srv.url, { lang });
    await page.goto(`${srv.url}/rules/bitoku`);
    await page.waitForSelector('[data-rules=bitoku] h2');
    assert.equal((await page.textContent('[data-rules=bitoku] h2')).trim(), heading);
    const text = await page.textContent('[data-rules=bitoku]');
    for (const w of words) assert.ok(text.includes(w), `${lang}: mentions ${w}`);
    assert.ok((await page.$$('[data-rules=bitoku] h3')).length >= 6, 'sections: aim, setup, a year, effects, scoring, solo');
    await page.context().close();
  }
});
