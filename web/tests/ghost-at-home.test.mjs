// Ghost at Home in a real browser: whole games by clicking (with and without the special
// cards), two players' secrets, reload mid-game, Japanese vocabulary, screenshots.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, newPlayer, createTable, joinTable, playToEnd, screenshot, waitSettled, seededRandom } from './lib.mjs';

const GAME = 'ghost-at-home';
let srv;
let browser;

useServerAndBrowser((started) => ({ server: srv, browser } = started));

// The seat's own view straight from the server (a second WebSocket in the page, with the
// page's session), as the ground truth for what the board may show.
async function serverView(page, table) {
  return page.evaluate(
    (table) =>
      new Promise((resolve, reject) => {
        const ws = new WebSocket(`ws://${location.host}/ws`);
        const timer = setTimeout(() => reject(new Error('no table message')), 10000);
        ws.onopen = () => ws.send(JSON.stringify({ type: 'subscribe', table }));
        ws.onmessage = (e) => {
          const m = JSON.parse(e.data);
          if (m.type !== 'table') return;
          clearTimeout(timer);
          ws.close();
          resolve({ view: m.view, you: m.you, version: m.version });
        };
      }),
    table,
  );
}

// What the board shows as this seat's own secrets: the hand and the face-down discards.
async function shownSecrets(page) {
  return page.evaluate(() => ({
    owners: [...new Set([...document.querySelectorAll('[data-secret]')].map((e) => e.getAttribute('data-secret')))],
    hand: [...document.querySelectorAll('.gah-hand [data-secret] [data-card]')].map((e) => e.dataset.card),
    faceDown: [...document.querySelectorAll('.gah-my-fd [data-count]')].flatMap((e) => Array(Number(e.dataset.count)).fill(e.querySelector('[data-card]').dataset.card)),
    html: [...document.querySelectorAll('[data-secret]')].map((e) => e.outerHTML),
    body: document.body.innerHTML,
  }));
}

// Waits until it is this page's move (something to click), or the game is over.
async function waitForMove(page) {
  await page.waitForFunction(
    () =>
      document.body.dataset.busy === undefined &&
      (document.querySelector('[data-outcome]') || [...document.querySelectorAll('[data-choice]')].some((b) => b.offsetParent !== null)),
    null,
    { timeout: 30000, polling: 50 },
  );
}

// Clicks the first element matching `selector` and waits until the board has reacted.
async function clickAndWait(page, selector) {
  await page.waitForSelector(selector);
  const renders = await page.evaluate(() => Number(document.body.dataset.renders || 0));
  await page.click(selector);
  await page.waitForFunction((r) => document.body.dataset.busy === undefined && Number(document.body.dataset.renders || 0) > r, renders, { timeout: 30000, polling: 50 });
}

async function hasMove(page) {
  return page.evaluate(
    () => document.body.dataset.busy === undefined && [...document.querySelectorAll('[data-choice]')].some((b) => !b.disabled && b.offsetParent !== null),
  );
}

// Clicks random choices until one is sent (the table's version moves on), as playToEnd
// does, but returns as soon as this seat's decision is made.
async function playOneMove(page, seed) {
  const random = seededRandom(seed);
  const version = await page.evaluate(() => document.body.dataset.version);
  for (let i = 0; i < 8 && (await hasMove(page)); i++) {
    const renders = await page.evaluate(() => Number(document.body.dataset.renders || 0));
    const visible = [];
    for (const b of await page.$$('[data-choice]:not([disabled])')) if (await b.isVisible()) visible.push(b);
    if (!visible.length) break;
    try {
      await visible[Math.floor(random() * visible.length)].click({ timeout: 5000 });
    } catch {
      continue;
    }
    await page.waitForFunction((r) => document.body.dataset.busy === undefined && Number(document.body.dataset.renders || 0) > r, renders, { timeout: 30000, polling: 50 });
    if ((await page.evaluate(() => document.body.dataset.version)) !== version) break;
  }
}

// A view of a 3-player table for the click-chain test: seat 0's turn, special cards in.
function fixtureView({ hand, phase = { kind: 'choose' }, floors = {} }) {
  const floor = (f, o = {}) => ({ floor: f, rooms: [], cats: 0, ghost: false, lit: false, ...o });
  const house = (k) => ({ floors: ['first', 'second', 'third'].map((f) => floor(f, (floors[k] || {})[f])), fully_explored: false });
  return {
    viewer: 0,
    players: 3,
    special_cards: true,
    active: 0,
    turn: 9,
    to_move: [0],
    phase,
    houses: [0, 1, 2].map(house),
    hand_sizes: [hand.length, 3, 3],
    hand,
    deck_size: 20,
    discards: [['ghost', 2]],
    secret_discard_counts: [1, 0, 2],
    my_secret_discards: ['floor3_bulbs0'],
    reshuffles: 0,
    winner: null,
    cards: CARD_FACTS,
  };
}

// Every card face's printed facts, as the view gives them (`view.cards`).
const FLOOR_IDS = ['first', 'second', 'third'];
const CARD_FACTS = [
  ...FLOOR_IDS.flatMap((floor, i) => [0, 1, 2, 3].map((bulbs) => ({ card: `floor${i + 1}_bulbs${bulbs}`, floor, bulbs, special: false }))),
  ...['ghost', 'cat'].map((card) => ({ card, floor: null, bulbs: 0, special: false })),
  ...['space_time_hole', 'light_bulb', 'cat_food', 'elevator', 'lightning', 'wild_room'].map((card) => ({ card, floor: null, bulbs: 0, special: true })),
];

// A legal entry with the facts the server sends beside it (crates/ghost-at-home
// src/facts.rs): the hand's cards it uses, where rooms go, where a ghost or lightning
// strikes.
const L = (action, uses = [], more = {}) => ({ action, facts: { uses, ...more } });
const place = (floor, space, card) => ({ floor, space, card });

const full1 = { first: { rooms: ['floor1_bulbs1', 'floor1_bulbs2'] } };
const CHAIN_CASES = [
  {
    name: 'rooms and lights',
    view: { hand: ['floor1_bulbs3', 'floor2_bulbs2', 'floor2_bulbs0'], floors: { 0: full1 } },
    legal: [
      L({ type: 'play_rooms', cards: ['floor2_bulbs2'] }, ['floor2_bulbs2'], { places: [place('second', 0, 'floor2_bulbs2')] }),
      L({ type: 'play_rooms', cards: ['floor2_bulbs0'] }, ['floor2_bulbs0'], { places: [place('second', 0, 'floor2_bulbs0')] }),
      L({ type: 'play_rooms', cards: ['floor2_bulbs0', 'floor2_bulbs2'] }, ['floor2_bulbs0', 'floor2_bulbs2'], {
        places: [place('second', 0, 'floor2_bulbs0'), place('second', 1, 'floor2_bulbs2')],
      }),
      L({ type: 'light', cards: ['floor1_bulbs3', 'floor2_bulbs2'], floor: 'second' }, ['floor1_bulbs3', 'floor2_bulbs2']),
      L({ type: 'light', cards: ['floor1_bulbs3', 'floor2_bulbs2'], floor: 'third' }, ['floor1_bulbs3', 'floor2_bulbs2']),
      L({ type: 'light', cards: ['floor1_bulbs3', 'floor2_bulbs0', 'floor2_bulbs2'], floor: 'second' }, ['floor1_bulbs3', 'floor2_bulbs0', 'floor2_bulbs2']),
      L({ type: 'discard' }),
    ],
  },
  {
    name: 'ghosts, cats, lightning and wild rooms',
    view: {
      hand: ['ghost', 'cat', 'wild_room'],
      floors: { 0: full1, 1: { first: { rooms: ['floor1_bulbs0'], lit: true } }, 2: { first: { rooms: ['floor1_bulbs0'] } } },
    },
    legal: [
      L({ type: 'play_ghost', target: 1 }, ['ghost'], { floor: 'first' }),
      L({ type: 'play_ghost', target: 2 }, ['ghost'], { floor: 'first' }),
      L({ type: 'play_cat', floor: 'first' }, ['cat']),
      L({ type: 'play_rooms', cards: ['wild_room'] }, ['wild_room'], { places: [place('second', 0, 'wild_room')] }),
      L({ type: 'discard' }),
    ],
  },
  {
    name: 'space-time hole, cat food, elevator, light bulb, lightning',
    view: {
      hand: ['space_time_hole', 'cat_food', 'elevator'],
      floors: {
        0: { first: { rooms: ['floor1_bulbs1', 'floor1_bulbs2'], cats: 1 }, second: { rooms: ['floor2_bulbs0'] } },
        1: { first: { rooms: ['floor1_bulbs0', 'floor1_bulbs1'], ghost: true, lit: true }, second: { rooms: ['floor2_bulbs1'], cats: 1 } },
        2: { first: { rooms: ['floor1_bulbs0'], cats: 1 } },
      },
    },
    legal: [
      L({ type: 'play_space_time_hole', from: 1, floor: 'first', to: 2 }, ['space_time_hole'], { floor: 'first' }),
      L({ type: 'play_cat_food', from: 1, floor: 'second', to: 'first' }, ['cat_food']),
      L({ type: 'play_cat_food', from: 1, floor: 'second', to: 'second' }, ['cat_food']),
      L({ type: 'play_cat_food', from: 2, floor: 'first', to: 'second' }, ['cat_food']),
      L({ type: 'play_elevator', from: 'first', to: 'second' }, ['elevator']),
      L({ type: 'discard' }),
    ],
  },
  {
    name: 'light bulb and lightning',
    view: { hand: ['light_bulb', 'lightning', 'floor3_bulbs1'], floors: { 0: full1, 1: { first: { rooms: ['floor1_bulbs0'], lit: true } } } },
    legal: [
      L({ type: 'play_light_bulb', floor: 'first' }, ['light_bulb']),
      L({ type: 'play_light_bulb', floor: 'second' }, ['light_bulb']),
      L({ type: 'play_lightning', target: 1 }, ['lightning'], { floor: 'first' }),
      L({ type: 'discard' }),
    ],
  },
  {
    name: 'discarding face down',
    view: { hand: ['ghost', 'ghost', 'cat'], phase: { kind: 'discarding' } },
    legal: [['ghost'], ['cat'], ['ghost', 'ghost'], ['ghost', 'cat'], ['ghost', 'ghost', 'cat']].map((cards) => L({ type: 'discard_cards', cards }, cards)),
  },
  {
    name: 'defending with a cat',
    view: { hand: ['cat', 'floor2_bulbs1'], phase: { kind: 'defence', target: 0, floor: 'first', then: { kind: 'end_turn' } }, floors: { 0: full1 } },
    legal: [L({ type: 'no_defence' }), L({ type: 'defend_with_cat' }, ['cat'])],
  },
  {
    name: 'stopping an escape',
    view: { hand: ['ghost'], phase: { kind: 'escape', asking: 0, ghosts_left: 1 } },
    legal: [L({ type: 'let_escape' }), L({ type: 'stop_escape' }, ['ghost'])],
  },
  { name: 'an empty hand', view: { hand: [] }, legal: [L({ type: 'pass' })] },
];

// Explores every chain of [data-choice] clicks on a board drawn from a fixed view: each
// chain must end in a send, every send must be one of the legal actions, and every legal
// action must be reachable. Runs the real board module in the page, without a table.
async function exploreChains(page, view, legal) {
  return page.evaluate(
    async ({ view, legal }) => {
      const mod = (await import('/games/ghost-at-home/board.js')).default;
      const root = document.createElement('div');
      document.body.append(root);
      const sent = [];
      const draw = (draft) => {
        const ctx = {
          view,
          legal: legal.map(({ action, facts }) => ({ action, label: '', facts })),
          you: 0,
          seats: [0, 1, 2].map((seat) => ({ seat, name: 'P' + seat })),
          pending: [0],
          status: 'playing',
          lang: 'en',
          t: (k, p) => String((mod.messages.en[k] ?? k)).replace(/\{(\w+)\}/g, (m, x) => (p && p[x] !== undefined ? p[x] : m)),
          send: (a) => {
            sent.push(a);
            return Promise.resolve();
          },
          draft,
          rerender: () => mod.render(root, ctx),
          replay: false,
          seatName: (k) => 'P' + k,
        };
        mod.render(root, ctx);
      };
      const problems = [];
      const ends = new Set();
      const walk = (path) => {
        draw({});
        for (const i of path) root.querySelectorAll('[data-choice]')[i].click();
        const n = root.querySelectorAll('[data-choice]').length;
        if (n === 0) problems.push('no choice after ' + JSON.stringify(path));
        for (let i = 0; i < n; i++) {
          draw({});
          for (const j of path) root.querySelectorAll('[data-choice]')[j].click();
          const before = sent.length;
          const button = root.querySelectorAll('[data-choice]')[i];
          if (button.tagName !== 'BUTTON') problems.push('not a button: ' + button.outerHTML.slice(0, 80));
          button.click();
          if (sent.length > before) ends.add(JSON.stringify(sent[sent.length - 1]));
          else if (path.length >= 6) problems.push('no send after ' + JSON.stringify([...path, i]));
          else walk([...path, i]);
        }
      };
      walk([]);
      root.remove();
      return { problems, ends: [...ends] };
    },
    { view, legal },
  );
}

// The scenarios run side by side: most of their time is spent waiting for the server
// and the bots, not computing.
describe('Ghost at Home in the browser', { concurrency: 5 }, () => {
  test('every chain of clicks on the table ends in a legal action, and every legal action can be clicked', async () => {
    const page = await (await browser.newContext()).newPage();
    await page.goto(srv.url + '/rules');
    const canon = (a) => JSON.stringify(Object.fromEntries(Object.entries(a).sort()));
    for (const c of CHAIN_CASES) {
      const { problems, ends } = await exploreChains(page, fixtureView(c.view), c.legal);
      assert.deepEqual(problems, [], c.name);
      assert.deepEqual(ends.map((e) => canon(JSON.parse(e))).sort(), c.legal.map((l) => canon(l.action)).sort(), c.name);
    }
    await page.context().close();
  });

  test('a whole game of the basic rules is played to its result by clicking the table', async () => {
    const page = await newPlayer(browser, srv.url);
    await createTable(page, { game: GAME, players: 2, options: { special_cards: false } });
    await page.waitForSelector('.gah-house');
    assert.equal(await page.locator('.gah-house').count(), 2, 'one house per player');
    let shot = false;
    const clicks = await playToEnd(page, {
      maxClicks: 600,
      onStep: async (p, i) => {
        if (!shot && i >= 12) {
          shot = true;
          await screenshot(p, 'ghost-at-home-basic');
        }
      },
    });
    assert.ok(clicks > 0);
    await page.waitForSelector('[data-outcome]');
    // The winner's house says so.
    assert.equal(await page.locator('.gah-house.gah-winner').count(), 1);
    await page.context().close();
  });

  test('with the special cards option a whole game is played by clicking, on a phone-sized screen', async () => {
    const page = await newPlayer(browser, srv.url, { viewport: { width: 390, height: 844 } });
    await createTable(page, { game: GAME, players: 2, options: { special_cards: true } });
    await page.waitForSelector('.gah-house');
    let shot = false;
    await playToEnd(page, {
      maxClicks: 600,
      seed: 7,
      onStep: async (p, i) => {
        if (!shot && i >= 10) {
          shot = true;
          await screenshot(p, 'ghost-at-home-special-phone');
        }
      },
    });
    await page.waitForSelector('[data-outcome]');
    // Nothing on the board is wider than the phone.
    const overflow = await page.evaluate(() => document.querySelector('.gah').scrollWidth - document.querySelector('.gah').clientWidth);
    assert.ok(overflow <= 1, `board overflows the phone by ${overflow}px`);
    await page.context().close();
  });

  test('two players at one table each see their own hand and face-down discards, never the other’s', async () => {
    const alice = await newPlayer(browser, srv.url);
    const table = await createTable(alice, { game: GAME, players: 3, bots: false, start: false });
    const bob = await newPlayer(browser, srv.url);
    await joinTable(bob, table);
    await alice.click('[data-fill-bots]');
    await alice.waitForSelector('[data-start]:not([disabled])');
    await alice.click('[data-start]');
    await Promise.all([alice.waitForSelector('.gah-house'), bob.waitForSelector('.gah-house')]);

    // First each discards a card face down (a secret only its owner may see)...
    for (const page of [alice, bob]) {
      await waitForMove(page);
      await clickAndWait(page, '.gah-discard-start');
      await clickAndWait(page, '.gah-hand button[data-choice]');
      await clickAndWait(page, '.gah-pile-go');
      await waitSettled(page);
    }
    // ...then both play until each has made a few moves, so both hold discards or played cards.
    const moves = new Map([
      [alice, 0],
      [bob, 0],
    ]);
    const deadline = Date.now() + 40000;
    let seed = 11;
    while ([...moves.values()].some((n) => n < 3) && Date.now() < deadline) {
      if ((await alice.$('[data-outcome]')) || (await bob.$('[data-outcome]'))) break;
      let moved = false;
      for (const page of [alice, bob]) {
        if (await hasMove(page)) {
          await playOneMove(page, seed++);
          moves.set(page, moves.get(page) + 1);
          moved = true;
        }
      }
      if (!moved) await alice.waitForTimeout(100);
    }
    await Promise.all([waitSettled(alice), waitSettled(bob)]);
    const [va, vb] = [await serverView(alice, table), await serverView(bob, table)];
    await Promise.all([alice.waitForFunction((v) => document.body.dataset.version === String(v), va.version), bob.waitForFunction((v) => document.body.dataset.version === String(v), vb.version)]);
    const [sa, sb] = [await shownSecrets(alice), await shownSecrets(bob)];

    assert.ok(sa.faceDown.length > 0 && sb.faceDown.length > 0, 'both discarded face down');
    // Each shows exactly its own secrets, as its own view gives them.
    assert.deepEqual(sa.owners, [`seat${va.you}`]);
    assert.deepEqual(sb.owners, [`seat${vb.you}`]);
    assert.deepEqual(sa.hand, va.view.hand);
    assert.deepEqual(sb.hand, vb.view.hand);
    assert.deepEqual(sa.faceDown.sort(), [...(va.view.my_secret_discards || [])].sort());
    assert.deepEqual(sb.faceDown.sort(), [...(vb.view.my_secret_discards || [])].sort());
    // The other's secret elements never appear.
    for (const html of sa.html) assert.ok(!sb.body.includes(html), 'alice’s secret shows in bob’s page');
    for (const html of sb.html) assert.ok(!sa.body.includes(html), 'bob’s secret shows in alice’s page');
    assert.ok(!sb.body.includes(`data-secret="seat${va.you}"`));
    assert.ok(!sa.body.includes(`data-secret="seat${vb.you}"`));
    // The other's hand is drawn as card backs only: no card face in their house.
    for (const [page, other] of [
      [alice, vb.you],
      [bob, va.you],
    ]) {
      const faces = await page.locator(`.gah-house[data-seat="${other}"] .gah-house-foot [data-card]`).count();
      assert.equal(faces, 0);
    }
    await screenshot(alice, 'ghost-at-home-two-players');
    await alice.context().close();
    await bob.context().close();
  });

  test('a reload mid-game resumes the same state, and switching to Japanese shows the game’s Japanese words', async () => {
    const page = await newPlayer(browser, srv.url);
    const table = await createTable(page, { game: GAME, players: 2 });
    await page.waitForSelector('.gah-house');
    await waitForMove(page);
    await playOneMove(page, 3);
    await waitForMove(page);
    await waitSettled(page);
    const snapshot = () =>
      page.evaluate(() => ({
        version: document.body.dataset.version,
        // The public table (not the choices, which a reload may draw afresh).
        floors: [...document.querySelectorAll('.gah-house .gah-floor')].map((e) => [
          e.getAttribute('aria-label'),
          [...e.querySelectorAll('.gah-slot [data-card]')].map((c) => c.dataset.card),
          e.querySelectorAll('.gah-ghost').length,
        ]),
        pile: [...document.querySelectorAll('.gah-pile-cards [data-card]')].map((e) => e.dataset.card),
        hand: [...document.querySelectorAll('.gah-hand [data-card]')].map((e) => e.dataset.card),
        deck: document.querySelector('.gah-stack-n')?.textContent,
      }));
    const before = await snapshot();
    assert.ok(before.version !== undefined);
    await page.reload();
    await page.waitForSelector('.gah-house');
    await waitSettled(page);
    const afterReload = await snapshot();
    assert.deepEqual(afterReload, before);
    assert.deepEqual(afterReload.hand, (await serverView(page, table)).view.hand);

    await page.click('[data-lang=ja]');
    await page.waitForFunction(() => document.querySelector('.gah')?.getAttribute('lang') === 'ja');
    const text = await page.locator('.gah').innerText();
    assert.match(text, /山札/);
    assert.match(text, /捨て札/);
    assert.match(text, /手札/);
    assert.match(text, /1階/);
    await screenshot(page, 'ghost-at-home-ja');
    // The rules page in Japanese too.
    await page.goto(`${srv.url}/rules/${GAME}`);
    await page.waitForFunction(() => document.body.innerText.includes('ゴーストアットホーム') && document.body.innerText.includes('電気をつける'));
    await page.context().close();
  });
});
