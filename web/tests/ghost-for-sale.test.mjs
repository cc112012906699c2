// Ghost for Sale in a real browser: whole games by clicking (the basic game, and the special
// cards on a phone in Japanese), a bidding turn built on the table and undone before it is
// sent, a reload mid-game, secrets kept between two players at one table.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, newPlayer, createTable, joinTable, screenshot, waitSettled } from './lib.mjs';

const GAME = 'ghost-for-sale';
// TAKUGE_TEST_SEED (as in lib.mjs) moves every game's clicks to other choices.
const SEED = Number(process.env.TAKUGE_TEST_SEED || 1);
const seed = (k) => (SEED - 1) * 1000 + k;
let srv;
let browser;

useServerAndBrowser((started) => ({ server: srv, browser } = started));

const version = (page) => page.evaluate(() => Number(document.body.dataset.version));
const step = (page) => page.evaluate(() => document.querySelector('.gfs-board')?.dataset.step || null);
const mySeat = (page) => page.evaluate(() => Number((document.querySelector('.gfs-seat.mine')?.className.match(/gfs-seat-(\d)/) || [])[1]));

// Play by clicking [data-choice] buttons until the game ends or `until` holds (a list of
// alternatives, each a list of selectors that must all match). The loop runs inside the page (element.click() on visible, enabled choices, then
// waits for the redraw or the ack as lib.mjs's playToEnd does) because this machine is
// shared and every browser round trip is slow; `passBias` is the chance of taking a
// Pass or End-turn button when one is offered, which keeps the auctions short.
async function play(page, { seed = 1, until = null, passBias = 0.6, maxClicks = 800, timeout = 150000 } = {}) {
  return page.evaluate(
    async ({ seed, until, passBias, maxClicks, timeout }) => {
      let a = seed >>> 0;
      const random = () => {
        a = (a + 0x6d2b79f5) >>> 0;
        let t = a;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
      };
      const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
      const start = Date.now();
      for (let clicks = 0; ; ) {
        if (Date.now() - start > timeout) throw new Error(`timed out after ${clicks} clicks`);
        if (document.querySelector('[data-outcome]')) return { clicks, outcome: true };
        if (document.body.dataset.busy !== undefined) {
          await sleep(10);
          continue;
        }
        if (until && until.some((all) => all.every((sel) => document.querySelector(sel)))) return { clicks, outcome: false };
        const choices = [...document.querySelectorAll('[data-choice]')].filter((b) => !b.disabled && b.offsetParent !== null);
        if (!choices.length) {
          await sleep(10);
          continue;
        }
        if (clicks >= maxClicks) throw new Error(`no end after ${clicks} clicks`);
        const stops = choices.filter((b) => b.matches('.pass, .gfs-end'));
        const pick = stops.length && random() < passBias ? stops[0] : choices[Math.floor(random() * choices.length)];
        const r = Number(document.body.dataset.renders || 0);
        pick.click();
        clicks++;
        while (!(document.body.dataset.busy === undefined && Number(document.body.dataset.renders || 0) > r)) {
          if (Date.now() - start > timeout) throw new Error('no redraw after a click');
          await sleep(10);
        }
      }
    },
    { seed, until, passBias, maxClicks, timeout },
  );
}

// Our bidding turn with nothing placed yet: the targets glow.
const BIDDING_TURN = [['.gfs-board[data-step=information_auction] .gfs-target.choosable[data-choice]']];

// 「このゲームは2ラウンドに分かれています」 and 「最も多くの得点を獲得したプレイヤーが勝利します」: a
// four-player game against bots, both rounds, to its result, only by clicking.
test('a player plays a whole game of two rounds against bots to its result by clicking', async () => {
  const page = await newPlayer(browser, srv.url);
  await createTable(page, { game: GAME, players: 4 });
  assert.ok(await page.$('.gfs-board'), 'the Ghost for Sale board is drawn, not the fallback');
  const first = await play(page, { seed: seed(1), until: [['.gfs-board[data-step=property_auction] .gfs-prop.choosable']] });
  if (!first.outcome) {
    await screenshot(page, 'ghost-for-sale');
    assert.ok((await play(page, { seed: seed(2) })).outcome);
  }
  await page.waitForSelector('.gfs-final');
  assert.equal(await page.$$eval('.gfs-final li', (els) => els.length), 4);
  // Every "?" card is face up at the end (「すべてのプレイヤーは「?カード」を表にし」).
  assert.equal(await page.$$eval('.gfs-seat .gfs-q.down', (els) => els.length), 0);
  assert.equal(await page.$$eval('.gfs-board[data-round="2"] .gfs-prop.castle', (els) => els.length), 6);
  await screenshot(page, 'ghost-for-sale-end');
  await page.context().close();
});

// 上級バリアントルール, played on a phone in Japanese: a special card on each manor, the game
// vocabulary of the document (館, ミセス・トゥルーライト, 賭け金カード…), and the whole game with the
// special-card decisions taken by clicking. Three players: no "?" pile auction
// (「3人プレイの場合、(2)のオークションは開催されません」).
test('the advanced variant plays through on a phone in Japanese, three players without the pile auction', async () => {
  const page = await newPlayer(browser, srv.url, { viewport: { width: 390, height: 844 } });
  await createTable(page, { game: GAME, players: 3, options: { special_cards: true } });
  await page.click('[data-lang=ja]');
  await page.waitForFunction(() => document.querySelector('.gfs-board')?.textContent.includes('ミセス・トゥルーライト'));
  const text = await page.textContent('.gfs-board');
  for (const word of ['1ラウンド:館のオークション', '①真実か嘘か', '②宣言', '③情報を得るオークション', '館', '賭け金カード', '低額', '高額', '3人プレイでは「?」カードのオークションはありません']) {
    assert.ok(text.includes(word), `shows ${word}`);
  }
  assert.equal(await page.$$eval('.gfs-prop .gfs-special', (els) => els.length), 6, 'a special card on every manor');
  assert.match(text, /暗すぎる|古来からの伝説|公開オークション|魔法の鏡|秘密の墓所|水晶玉|家族の肖像画|全く以て普通/);
  await screenshot(page, 'ghost-for-sale-phone-ja');
  const overflow = await page.evaluate(() => document.querySelector('.gfs-board').scrollWidth - document.querySelector('.gfs-board').clientWidth);
  assert.ok(overflow <= 1, `board overflows by ${overflow}px`);
  assert.ok((await play(page, { seed: seed(5) })).outcome);
  assert.match(await page.textContent('.gfs-final'), /最終得点/);
  // The rules page, in Japanese too.
  await page.goto(srv.url + '/rules/' + GAME);
  await page.waitForFunction(() => document.body.textContent.includes('上級バリアントルール'));
  await page.context().close();
});

// Reconnecting (here a reload) resumes exactly, and 「1枚か2枚の賭け金カードを「ミセス・トゥルーライト」
// か「?カード」のどちらか、もしくは両方に…置く」: a turn is built on the table (target, card,
// target, card), by mouse or keyboard, can be undone step by step, and is sent only when
// confirmed.
test('a reload mid-game resumes the same state; a bidding turn is built and undone before it is sent', async () => {
  const page = await newPlayer(browser, srv.url);
  await createTable(page, { game: GAME, players: 5 });
  assert.equal((await play(page, { seed: seed(11), until: BIDDING_TURN })).outcome, false, 'our turn in the information auction comes');
  const snap = () =>
    page.evaluate(() => ({
      version: Number(document.body.dataset.version),
      board: document.querySelector('.gfs-board').innerText,
      secrets: [...document.querySelectorAll('.gfs-board [data-secret]')].map((e) => e.getAttribute('data-secret')),
    }));
  const before = await snap();
  await page.reload();
  await waitSettled(page);
  await page.waitForSelector('.gfs-target.choosable[data-choice]');
  assert.deepEqual(await snap(), before);

  const v0 = await version(page);
  const handBefore = await page.$$eval('.gfs-hand .gfs-card', (els) => els.length);
  // By keyboard: the target, then (the focus moves on to the hand) a card.
  await page.focus('.gfs-target.choosable');
  await page.keyboard.press('Enter');
  await page.waitForSelector('.gfs-target.chosen');
  assert.equal(await page.$$eval('.gfs-target.choosable', (els) => els.length), 0, 'the target is chosen');
  assert.ok(await page.evaluate(() => document.activeElement?.matches('.gfs-hand .gfs-card[data-choice]')), 'the focus is on the hand');
  await page.keyboard.press('Enter');
  await page.waitForSelector('.gfs-bid.draft');
  assert.equal(await page.$$eval('.gfs-hand .gfs-card', (els) => els.length), handBefore - 1, 'the card left the hand');
  await page.click('[data-undo]');
  await page.waitForSelector('.gfs-hand .gfs-card[data-choice]');
  assert.equal(await page.$$eval('.gfs-bid.draft', (els) => els.length), 0, 'the card is back in the hand');
  await page.click('[data-undo]');
  await page.waitForSelector('.gfs-target.choosable');
  assert.equal(await version(page), v0, 'nothing sent yet');
  // Two cards on Mrs. Truelight, then confirm: both lie there, face down to the others.
  await page.click('.gfs-target.choosable >> nth=0');
  await page.click('.gfs-hand .gfs-card[data-choice] >> nth=0');
  await page.waitForSelector('.gfs-bid.draft');
  await page.click('.gfs-target.choosable >> nth=0');
  await page.click('.gfs-hand .gfs-card[data-choice] >> nth=0');
  await page.waitForFunction(() => document.querySelectorAll('.gfs-bid.draft').length === 2);
  await screenshot(page, 'ghost-for-sale-bid-draft');
  assert.equal(await version(page), v0, 'nothing sent before the confirmation');
  const me = await mySeat(page);
  const mine = () => page.$$eval(`.gfs-target .gfs-bid.gfs-seat-${me}:not(.draft)`, (els) => els.length);
  const placed = await mine();
  await page.click('.gfs-prompt .gfs-btn.primary[data-choice]');
  await page.waitForFunction(() => !document.querySelector('.gfs-bid.draft') && document.body.dataset.busy === undefined);
  assert.ok((await mine()) === placed + 2 || (await step(page)) !== 'information_auction', 'the two cards lie on the target');
  await page.context().close();
});

// 「裏向きに自分の前に伏せます」, 「裏向きで賭け金カードをプレイします」: two players at one table each see
// their own hand, hidden cards, "?" card and bid values — and of the other only what lies face
// down: counts, backs and marks.
test('two players at one table see only their own secrets', async () => {
  const a = await newPlayer(browser, srv.url);
  const b = await newPlayer(browser, srv.url);
  const id = await createTable(a, { game: GAME, players: 4, bots: false, start: false });
  await joinTable(b, id);
  await a.click('[data-fill-bots]');
  await a.waitForSelector('[data-start]:not([disabled])');
  await a.click('[data-start]');
  await a.waitForSelector('.gfs-board');
  await b.waitForSelector('.gfs-board');
  const seatA = await mySeat(a);
  const seatB = await mySeat(b);
  assert.notEqual(seatA, seatB);

  // Set four cards aside (both, before the "?" cards come), then play the truth card (A)
  // and the lie card (B), through the UI.
  for (const p of [a, b]) {
    for (let i = 0; i < 4; i++) {
      await p.waitForSelector('.gfs-hand .gfs-card[data-choice]');
      await p.click('.gfs-hand .gfs-card[data-choice] >> nth=0');
    }
    await p.click('.gfs-prompt .gfs-btn.primary[data-choice]');
  }
  for (const [p, card] of [
    [a, 'truth'],
    [b, 'lie'],
  ]) {
    await p.waitForSelector(`.gfs-qchoice .gfs-q.${card}[data-choice]`);
    await p.click(`.gfs-qchoice .gfs-q.${card}[data-choice]`);
    await p.click('.gfs-prompt .gfs-btn.primary[data-choice]');
  }
  // Both play on until each has a card on the information auction's targets. Nobody may
  // pass there before bidding on Mrs. Truelight, so that moment comes before its end.
  const both = [[`.gfs-board[data-step=information_auction] .gfs-target .gfs-bid.gfs-seat-${seatA}:not(.draft)`, `.gfs-board[data-step=information_auction] .gfs-target .gfs-bid.gfs-seat-${seatB}:not(.draft)`]];
  const [ra, rb] = await Promise.all([play(a, { seed: seed(21), until: both, passBias: 0 }), play(b, { seed: seed(22), until: both, passBias: 0 })]);
  assert.ok(!ra.outcome && !rb.outcome);
  // Both settled at one version.
  for (let i = 0; ; i++) {
    assert.ok(i < 200, 'both pages show one state');
    await waitSettled(a);
    await waitSettled(b);
    if ((await version(a)) === (await version(b))) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const look = (p, me, other) =>
    p.evaluate(
      ([me, other]) => ({
        secrets: [...document.querySelectorAll('.gfs-board [data-secret]')].map((e) => e.getAttribute('data-secret')),
        hand: document.querySelectorAll('.gfs-hand .gfs-card[data-secret]').length,
        aside: document.querySelectorAll('.gfs-aside .gfs-card[data-secret]').length,
        myQ: document.querySelector(`.gfs-seat.gfs-seat-${me} .gfs-q`)?.className,
        myQText: document.querySelector(`.gfs-seat.gfs-seat-${me} .gfs-q`)?.textContent,
        otherQ: document.querySelector(`.gfs-seat.gfs-seat-${other} .gfs-q`)?.className,
        otherPanel: document.querySelector(`.gfs-seat.gfs-seat-${other}`)?.textContent,
        myBids: [...document.querySelectorAll(`.gfs-target .gfs-bid.gfs-seat-${me}`)].map((e) => e.classList.contains('known')),
        otherBids: [...document.querySelectorAll(`.gfs-target .gfs-bid.gfs-seat-${other}`)].map((e) => e.classList.contains('known') || /\d/.test(e.textContent)),
      }),
      [me, other],
    );
  const la = await look(a, seatA, seatB);
  const lb = await look(b, seatB, seatA);
  assert.equal(await step(a), 'information_auction');
  for (const [mine, theirs, me, them, card] of [
    [la, lb, seatA, seatB, 'Truth card'],
    [lb, la, seatB, seatA, 'Lie card'],
  ]) {
    assert.equal(mine.aside, 4, 'your four hidden cards are shown to you');
    assert.ok(mine.hand > 0, 'your hand is shown to you');
    assert.match(mine.myQ, /face/, 'your "?" card is face up to you');
    assert.equal(mine.myQText, card);
    assert.match(mine.otherQ, /down/, 'the other\'s "?" card lies face down');
    assert.ok(!/Truth card|Lie card/.test(mine.otherPanel), 'nothing names the other\'s "?" card');
    assert.ok(mine.myBids.length > 0 && mine.myBids.every(Boolean), 'your bid values are shown to you');
    assert.ok(mine.otherBids.length > 0 && mine.otherBids.every((k) => !k), 'the other\'s bids show their backs only');
    for (const s of mine.secrets) assert.ok(!theirs.secrets.includes(s), `seat ${them} must not see seat ${me}'s secret "${s}"`);
    assert.ok(mine.secrets.every((s) => new RegExp(`-${me}-`).test(s)), 'every secret drawn is this seat\'s own');
  }
  await a.context().close();
  await b.context().close();
});
