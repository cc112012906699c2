// art-heist in a real browser: a whole game by clicking the table, secrets between two
// players at one table, reload mid-game, and the Japanese game vocabulary.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, newPlayer, createTable, joinTable, playToEnd, screenshot, waitSettled } from './lib.mjs';

let srv;
let browser;

useServerAndBrowser((started) => ({ server: srv, browser } = started));

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Waits until the table stops changing (the bots have made their simultaneous choices), so
// what the page shows is the state the table waits in.
async function waitQuiet(page, ms = 800) {
  await waitSettled(page);
  let last = await page.evaluate(() => document.body.dataset.version);
  for (let i = 0; i < 40; i++) {
    await sleep(ms);
    const now = await page.evaluate(() => document.body.dataset.version);
    if (now === last) return;
    last = now;
  }
}

// Plays `n` random clicks (or fewer, if the game ends first).
async function clicks(page, n, seed) {
  try {
    await playToEnd(page, { maxClicks: n, seed });
  } catch (e) {
    if (!/no outcome after/.test(String(e && e.message))) throw e;
  }
}

const secrets = (page, prefix) =>
  page.$$eval(`.ah [data-secret^="${prefix}"]`, (els) => [...new Set(els.map((e) => e.getAttribute('data-secret')))]);

test('a whole game against bots by clicking the table; a reload mid-game resumes it; Japanese shows the game vocabulary', async (t) => {
  const page = await newPlayer(browser, srv.url);
  await createTable(page, { game: 'art-heist', players: 5 });
  await page.waitForSelector('.ah-track');
  const text = await page.textContent('[data-board]');
  for (const word of ['Auction house', 'Castle', 'Safe', 'Cage', 'Your art']) assert.ok(text.includes(word), `English board shows ${word}`);

  // A few turns, then a reload: the same state comes back (the local draft aside).
  await clicks(page, 8, 3);
  await waitQuiet(page);
  const snapshot = () =>
    page.evaluate(() => ({
      version: document.body.dataset.version,
      hand: [...document.querySelectorAll('.ah-hand-art [data-art]')].map((e) => e.getAttribute('data-art')),
      track: document.querySelector('.ah-track').innerHTML,
      safe: document.querySelector('.ah-safe').innerHTML,
      players: document.querySelector('.ah-players').innerHTML,
    }));
  const before = await snapshot();
  await page.reload();
  await page.waitForSelector('.ah-track');
  await waitSettled(page);
  assert.deepEqual(await snapshot(), before);

  // The language switch redraws the board with the document's words.
  await page.click('[data-lang="ja"]');
  await page.waitForFunction(() => (document.querySelector('[data-board]') || {}).textContent?.includes('オークション会場'));
  const ja = await page.textContent('[data-board]');
  for (const word of ['オークション会場', '城', '金庫', '檻', '「2」のカード', 'あなたの美術品']) assert.ok(ja.includes(word), `Japanese board shows ${word}`);
  assert.ok(!ja.includes('Auction house'));
  await screenshot(page, 'art-heist-ja');
  await page.click('[data-lang="en"]');

  let shot = false;
  const n = await playToEnd(page, {
    seed: 7,
    onStep: async (p, i) => {
      // A screenshot in the middle of the game.
      if (!shot && i >= 6) {
        shot = true;
        await screenshot(p, 'art-heist-game');
      }
    },
  });
  assert.ok(n > 0, 'the player made choices');
  await page.waitForSelector('.ah-result');
  t.diagnostic(`${n} clicks; ${await page.textContent('.ah-turn')}; table version ${await page.evaluate(() => document.body.dataset.version)}`);
  await screenshot(page, 'art-heist-result');

  // The log tells every reveal as soon as it is public (issue 21, item 2): a line of no
  // seat with the places, the cards, the exhibits — not only "seat N acted".
  const news = () => page.$$eval('[data-log] li.news', (els) => els.map((e) => e.textContent));
  const live = await news();
  assert.ok(live.some((l) => l.startsWith('Places revealed — seat 1: ')), live.slice(0, 3).join(' | '));
  assert.ok(live.some((l) => l.startsWith('Cards at the')));
  assert.ok(live.some((l) => l.startsWith('Final exhibits')));
  // The replay tells a spectator the same story, step by step.
  await page.click('a[href^="/replay/"]');
  await page.waitForSelector('[data-replay-forward]');
  await page.selectOption('[data-replay-seat]', '');
  await page.waitForSelector('[data-replay-last]');
  await page.click('[data-replay-last]');
  await page.waitForFunction(() => document.querySelectorAll('[data-log] li.news').length > 0);
  assert.deepEqual(await news(), live, 'the replay tells every reveal');
  await page.context().close();
});

test('two players at one table see only their own secrets (hands, place, action card)', async () => {
  const a = await newPlayer(browser, srv.url);
  const id = await createTable(a, { game: 'art-heist', players: 5, bots: false, start: false });
  const b = await newPlayer(browser, srv.url);
  await joinTable(b, id);
  await a.click('[data-fill-bots]');
  await a.waitForSelector('[data-start]:not([disabled])');
  await a.click('[data-start]');
  await a.waitForSelector('.ah-track');
  await b.waitForSelector('.ah-track');
  await waitQuiet(a);
  await waitQuiet(b);

  // The dealt art: 4 secret cards each, never drawn on the other's table.
  const artA = await secrets(a, 'art-');
  const artB = await secrets(b, 'art-');
  assert.equal(artA.length, 4);
  assert.equal(artB.length, 4);
  for (const s of artA) {
    assert.equal(await b.$(`[data-art="${s.slice(4)}"]`), null, `B must not see A's ${s}`);
    assert.equal(await b.$(`[data-secret="${s}"]`), null);
  }
  for (const s of artB) assert.equal(await a.$(`[data-art="${s.slice(4)}"]`), null, `A must not see B's ${s}`);

  // A's place: A sees it, B sees only that A has chosen.
  const seatA = Number(await a.getAttribute('.ah-player.is-you', 'data-seat'));
  await a.click('[data-choice][data-place="castle"]');
  await waitSettled(a);
  await a.waitForSelector('[data-secret="place-castle"]');
  await b.waitForSelector(`.ah-player[data-seat="${seatA}"] .is-chosen`);
  assert.equal(await b.$(`.ah-player[data-seat="${seatA}"] .is-place`), null, 'B must not see where A goes');
  assert.equal(await b.$('[data-secret^="place-"]'), null);
  assert.equal(await b.$(`.ah-visitor .ah-pawn`), null, 'nobody is placed before all have chosen');

  // B goes to the castle too; after the places are revealed (and any auction), both
  // choose action cards. B picks a card first (a local draft, not sent); A's choice then
  // changes the table's version, and B's pick must survive it.
  await b.click('[data-choice][data-place="castle"]');
  await waitSettled(b);
  await b.waitForSelector('.ah-hand-cards [data-choice]', { timeout: 30000 });
  await b.click('.ah-hand-cards [data-choice]');
  await b.waitForSelector('.ah-hand-cards .is-selected');
  await a.waitForSelector('.ah-hand-cards [data-choice]', { timeout: 30000 });
  await a.click('.ah-hand-cards [data-choice]');
  await a.click('.ah-controls [data-choice]');
  await waitSettled(a);
  // A's face-down card: A sees it, B sees only that A has chosen.
  const played = await secrets(a, 'play-');
  assert.equal(played.length, 1, 'A sees its own face-down card');
  await b.waitForSelector(`.ah-player[data-seat="${seatA}"] .is-chosen`);
  assert.equal(await b.$(`[data-secret^="play-"]:not(.is-selected)`), null);
  const aVisitorCard = await b.$$eval('.ah-castle .ah-visitor', (els, name) => els.filter((e) => e.textContent.includes(name)).map((e) => !!e.querySelector('.ah-act')), a.takugeName);
  assert.deepEqual(aVisitorCard, [false], "in B's castle, A's chip shows a face-down card, not the card");
  // B's pick survived A's move; B can still take it back, or play it.
  assert.ok(await b.$('.ah-hand-cards .is-selected[data-undo]'), "B's draft survives another seat's move");
  await b.click('.ah-controls [data-choice]');
  await waitSettled(b);
  // Accepted: once the bots have chosen too, the castle cards are revealed (or, with no
  // exhibit to make, the next turn begins).
  await a.waitForFunction(() => !/\b1 \//.test(document.querySelector('.ah-turn').textContent) || document.querySelector('.ah-castle .ah-visitor .ah-act'));
  await screenshot(b, 'art-heist-two-players');
  await a.context().close();
  await b.context().close();
});
