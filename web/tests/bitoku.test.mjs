// Bitoku (美徳) in a real browser: whole games by clicking the board (two players, and solo
// against the Tengu), a phone screen in both languages, and the rules page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, newPlayer, createTable, joinTable, playToEnd, screenshot, seededRandom, waitSettled } from './lib.mjs';

const GAME = 'bitoku';
const PHONE = { width: 390, height: 844 };
let srv;
let browser;

useServerAndBrowser((started) => ({ server: srv, browser } = started));

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

const version = (page) => page.evaluate(() => Number(document.body.dataset.version));

// Plays to the result by clicking random choices on the board, as playToEnd does, but as a
// player would: passing (and skipping) only now and then while something else is offered,
// so the summers are full and the game reaches the board's every corner.
async function playBoard(page, { seed, maxClicks = 3000, passRate = 0.08, onStep } = {}) {
  const random = seededRandom(seed);
  let clicks = 0;
  for (;;) {
    await page.waitForFunction(
      () => document.body.dataset.busy === undefined && (document.querySelector('[data-outcome]') || document.querySelector('[data-choice]:not([disabled])')),
      null,
      { timeout: 60000, polling: 50 },
    );
    if (onStep && !(await page.$('[data-outcome]'))) await onStep(page, clicks);
    const picked = await page.evaluate(
      ([a, b, rate]) => {
        if (document.querySelector('[data-outcome]')) return { done: true };
        for (const old of document.querySelectorAll('[data-test-pick]')) old.removeAttribute('data-test-pick');
        let choices = [...document.querySelectorAll('[data-choice]')].filter((x) => !x.disabled);
        const busy = choices.filter((x) => !x.classList.contains('bk-pass') && x.dataset.kind !== 'skip');
        if (busy.length && a >= rate) choices = busy;
        if (!choices.length) return { none: true };
        choices[Math.floor(b * choices.length)].setAttribute('data-test-pick', '');
        return { renders: Number(document.body.dataset.renders || 0) };
      },
      [random(), random(), passRate],
    );
    if (picked.done) return clicks;
    if (picked.none) continue;
    if (clicks >= maxClicks) throw new Error(`no outcome after ${clicks} clicks`);
    try {
      await page.click('[data-test-pick]', { timeout: 5000 });
    } catch {
      continue;
    }
    clicks += 1;
    await page.waitForFunction((r) => document.body.dataset.busy === undefined && Number(document.body.dataset.renders || 0) > r, picked.renders, { timeout: 60000, polling: 50 });
  }
}

// Every choice the board offers is drawn on a piece or labelled in the game's words: the
// shell's raw action labels (English only) never show.
async function noRawLabels(page) {
  const raw = await page.$$eval('.bk-raw', (els) => els.map((e) => e.textContent));
  assert.deepEqual(raw, [], 'every choice is drawn by the board');
}

// 「得点の計算終了時に「美徳点」が最も高いプレイヤーが勝利者となる」: four years and the Awakening,
// played to the result only by clicking the Bitoku board (no fallback buttons).
test('two players: a person plays a whole game against the rule bot by clicking the board', async () => {
  const page = await newPlayer(browser, srv.url);
  await startTable(page, 2);
  assert.ok(await page.$('.bk-board .bk-forest .bk-region'), 'the Bitoku board is drawn, not the fallback');
  assert.equal(await page.$('.fallback-board'), null);
  let shot = false;
  const clicks = await playBoard(page, {
    seed: 3,
    onStep: async (p) => {
      await noRawLabels(p);
      if (!shot && (await p.$('.bk-die-slot.choosable'))) {
        await screenshot(p, 'bitoku');
        shot = true;
      }
    },
  });
  assert.ok(clicks > 40, `a whole game takes many decisions (${clicks})`);
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
  await playBoard(page, {
    seed: 5,
    onStep: async (p) => {
      await noRawLabels(p);
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

// 夏 A and B on the board: a yokai is played by clicking it and then a slot, a die by
// clicking it and then a forest region; a pick can be taken back before anything is sent.
test('a yokai goes into a slot and a die into a region by clicking them on the board', async () => {
  const page = await newPlayer(browser, srv.url);
  await startTable(page, 1);
  // 春 A: discard down to three, on the card itself.
  await page.click('.bk-hand .bk-act[data-choice]');
  await page.waitForSelector('.bk-board[data-phase=Summer] .bk-panel .bk-pass');
  // A yokai: its "play", then the four empty slots offer themselves.
  const name = await page.textContent('.bk-hand .bk-card:has(.bk-act[data-choice]) .bk-card-name');
  const v0 = await version(page);
  await page.click('.bk-hand .bk-card:has(.bk-act[data-choice]) .bk-act[data-choice]');
  await page.waitForSelector('[data-undo]');
  assert.equal(await page.$$eval('.bk-slot .bk-act.target', (els) => els.length), 4, 'every empty slot is offered');
  assert.equal(await page.$('.bk-die-slot.choosable'), null, 'nothing else is picked meanwhile');
  await page.click('.bk-panel [data-undo]');
  await page.waitForFunction(() => !document.querySelector('.bk-slot .bk-act.target'));
  assert.equal(await version(page), v0, 'nothing sent');
  await page.click('.bk-hand .bk-card:has(.bk-act[data-choice]) .bk-act[data-choice]');
  await page.click('[data-slot="1"] .bk-act.target');
  await page.waitForFunction((n) => document.querySelector('[data-slot="1"] .bk-card-name')?.textContent === n, name);
  // Its effect and the Tengu's move: answered until the summer turn is back.
  for (let i = 0; i < 20 && !(await page.$('.bk-panel .bk-pass')); i++) {
    await waitSettled(page);
    const c = await page.$('.bk-panel [data-choice]:not(.bk-pass), .bk-board .bk-act.target[data-choice]');
    if (c) await c.click();
  }
  await page.waitForSelector('.bk-panel .bk-pass');
  // A die: pick it, then a region.
  const die = await page.$eval('.bk-die-slot.choosable', (el) => Number(el.dataset.die));
  await page.click(`.bk-die-slot.choosable[data-die="${die}"]`);
  await page.waitForSelector('.bk-region .bk-act.target');
  const region = await page.$eval('.bk-region:has(.bk-act.target)', (el) => el.dataset.region);
  const before = await page.$$eval(`.bk-region[data-region="${region}"] .bk-die.seat-0`, (els) => els.length);
  await page.click(`.bk-region[data-region="${region}"] .bk-act.target`);
  await page.waitForFunction(
    ([r, n]) => document.querySelectorAll(`.bk-region[data-region="${r}"] .bk-die.seat-0`).length > n,
    [region, before],
  );
  assert.match(await page.textContent(`.bk-die-slot[data-die="${die}"]`), /forest/);
  await page.context().close();
});

// 「手札」 is each player's own: two players at one table see their own hand and Iwakura
// rock, and of the other only the number of cards.
test('two players at one table see only their own hand and rock', async () => {
  const a = await newPlayer(browser, srv.url);
  const b = await newPlayer(browser, srv.url);
  const id = await createTable(a, { game: GAME, players: 2, bots: false, start: false });
  await joinTable(b, id);
  await a.waitForSelector('[data-start]:not([disabled])');
  await a.click('[data-start]');
  for (const p of [a, b]) {
    // (The hands are drawn to four in turn order, so the second may still be empty.)
    await p.waitForSelector('.bk-board .bk-player.mine .bk-hand');
    // Every secret drawn is inside one's own area; the other's hand is a number.
    const stray = await p.$$eval('[data-secret]', (els) => els.filter((e) => !e.closest('.bk-player.mine, .bk-panel')).length);
    assert.equal(stray, 0);
    assert.equal(await p.$('.bk-player:not(.mine) .bk-hand'), null);
    assert.match(await p.textContent('.bk-player:not(.mine)'), /\d in hand/);
    assert.ok(await p.$('.bk-player.mine [data-secret^="rock "]'), 'one\'s own rock is shown');
  }
  assert.ok((await a.$('.bk-player.mine .bk-hand .bk-card')) || (await b.$('.bk-player.mine .bk-hand .bk-card')), 'the first to discard holds its cards');
  const seatA = await a.$eval('.bk-player.mine', (el) => el.dataset.seat);
  const seatB = await b.$eval('.bk-player.mine', (el) => el.dataset.seat);
  assert.notEqual(seatA, seatB);
  await a.context().close();
  await b.context().close();
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
