// The shell around the boards: accounts, lobby, table creation, resuming, reconnecting,
// languages and the replay viewer. Games are drawn with the fallback board (plainBoards) so
// these tests check the shell, not the game boards.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useServerAndBrowser,
  startServer,
  newPlayer,
  newGuest,
  createTable,
  joinTable,
  playToEnd,
  screenshot,
  waitSettled,
  uniqueName,
  inviteLink,
} from './lib.mjs';

let server;
let browser;

useServerAndBrowser((started) => ({ server, browser } = started));

const me = (page) => page.evaluate(() => fetch('/api/me').then((r) => r.json()));

test('a guest who registers keeps the same account and its tables', async () => {
  const page = await newGuest(browser, server.url, { plainBoards: true });
  const guest = await me(page);
  assert.equal(guest.guest, true);
  const id = await createTable(page, { game: 'ghost-at-home', players: 2, start: false });
  await page.click('#header a[href="/login"]');
  const name = uniqueName('reg');
  await page.fill('[data-form=register] input[name=name]', name);
  await page.fill('[data-form=register] input[name=password]', 'correct horse 7');
  await page.click('[data-form=register] button[type=submit]');
  await page.waitForSelector('[data-my-tables]');
  const user = await me(page);
  assert.equal(user.id, guest.id);
  assert.equal(user.guest, false);
  assert.equal(user.name, name);
  await page.waitForSelector(`[data-my-tables] [data-table="${id}"] .status`);
  await page.context().close();
});

test('login and sign-up errors are shown in words', async () => {
  const page = await newPlayer(browser, server.url);
  const taken = page.takugeName;
  await page.context().clearCookies();
  await page.goto(server.url + '/login');
  await page.fill('[data-form=login] input[name=name]', taken);
  await page.fill('[data-form=login] input[name=password]', 'wrong-password');
  await page.click('[data-form=login] button[type=submit]');
  const err = page.locator('[data-form=login] [data-error]');
  await err.waitFor({ state: 'visible' });
  assert.equal(await err.textContent(), 'Wrong name or password.');
  await page.fill('[data-form=register] input[name=name]', taken);
  await page.fill('[data-form=register] input[name=password]', 'correct horse 7');
  await page.click('[data-form=register] button[type=submit]');
  const regErr = page.locator('[data-form=register] [data-error]');
  await regErr.waitFor({ state: 'visible' });
  assert.equal(await regErr.textContent(), 'That name is taken.');
  // A password the browser refuses (too short) is not sent: the server's old error about
  // the name must not stay beside it, and the hint gives the real limits.
  await page.fill('[data-form=register] input[name=password]', 'short');
  await page.click('[data-form=register] button[type=submit]');
  await regErr.waitFor({ state: 'hidden' });
  assert.match(await page.textContent('[data-form=register]'), /8 to 256 characters/);
  // The right password logs in.
  await page.fill('[data-form=login] input[name=password]', 'correct horse 7');
  await page.click('[data-form=login] button[type=submit]');
  await page.waitForSelector('[data-form=create]');
  await page.context().close();
});

test('lobby filters by game and by player count', async () => {
  const host = await newPlayer(browser, server.url);
  const a = await createTable(host, { game: 'ghost-for-sale', players: 4, bots: false, start: false });
  const host2 = await newPlayer(browser, server.url);
  const b = await createTable(host2, { game: 'secret-moon', players: 6, bots: false, start: false });
  const page = await newPlayer(browser, server.url);
  await page.waitForSelector(`[data-lobby] [data-table="${a}"]`);
  await page.waitForSelector(`[data-lobby] [data-table="${b}"]`);
  await page.selectOption('[data-filter=game]', 'secret-moon');
  await page.waitForSelector(`[data-lobby] [data-table="${a}"]`, { state: 'detached' });
  assert.ok(await page.$(`[data-lobby] [data-table="${b}"]`));
  await page.selectOption('[data-filter=game]', '');
  await page.selectOption('[data-filter=players]', '4');
  await page.waitForSelector(`[data-lobby] [data-table="${b}"]`, { state: 'detached' });
  assert.ok(await page.$(`[data-lobby] [data-table="${a}"]`));
  // The listed table opens and a seat can be taken.
  await joinTable(page, a);
  await page.waitForSelector('[data-seat="1"] .seat-name');
  for (const p of [host, host2, page]) await p.context().close();
});

test('the lobby shows host, options, clock and seats, and games in progress to watch', async () => {
  const host = await newPlayer(browser, server.url);
  const hostName = host.takugeName;
  const open = await createTable(host, { game: 'art-heist', players: 5, options: { memory_aid: true }, bots: false, start: false });
  const host2 = await newPlayer(browser, server.url);
  const playing = await createTable(host2, { game: 'art-heist', players: 5 });
  const page = await newPlayer(browser, server.url);
  const row = page.locator(`[data-lobby] [data-table="${open}"]`);
  await row.waitFor();
  const text = await row.textContent();
  assert.match(text, new RegExp(hostName), 'the host is named');
  assert.match(text, /Memory aid: On/, 'the memory aid option is shown');
  assert.match(text, /0\/5 seated|1\/5 seated/);
  // The game in progress is listed to watch, with its seats (bots by their names).
  const live = page.locator(`[data-lobby-playing] [data-table="${playing}"]`);
  await live.waitFor();
  assert.match(await live.textContent(), /\(bot\)/);
  assert.match(await live.textContent(), /Memory aid: Off/);
  await screenshot(page, 'lobby');
  await live.locator('a').click();
  await page.waitForURL(new RegExp(`/t/${playing}$`));
  await page.waitForSelector('.ah-track');
  // A spectator: nothing to choose.
  assert.equal(await page.$('[data-your-turn]'), null);
  await page.context().close();
  await host.context().close();
  await host2.context().close();
});

test('a table is created with the chosen options, privacy and clock', async () => {
  const page = await newPlayer(browser, server.url);
  const id = await createTable(page, {
    game: 'ghost-for-sale',
    players: 3,
    options: { special_cards: true },
    private: true,
    clock: { kind: 'real_time', per_move_seconds: 120, reserve_seconds: 600 },
    bots: false,
    start: false,
  });
  const link = await inviteLink(page);
  const info = await page.evaluate((link) => fetch('/api/tables/' + link.split('/t/')[1]).then((r) => r.json()), link);
  assert.equal(info.id, id);
  assert.equal(info.options.special_cards, true);
  assert.equal(info.private, true);
  assert.deepEqual(info.clock, { kind: 'real_time', per_move_seconds: 120, reserve_seconds: 600 });
  assert.match(await page.textContent('main'), /120 s per move \+ 600 s reserve/);
  // A second player joins through the invite link.
  const friend = await newPlayer(browser, server.url);
  const invite = new URL(link).searchParams.get('invite');
  await joinTable(friend, id, { invite });
  await page.waitForSelector(`[data-seat="1"]:has-text("${friend.takugeName}")`);
  await screenshot(page, 'shell-seating');
  await page.context().close();
  await friend.context().close();
});

test("a real-time clock counts down the pending seat's move and shows each seat's reserve", async () => {
  const page = await newPlayer(browser, server.url, { plainBoards: true });
  await createTable(page, { game: 'ghost-at-home', players: 2, clock: { kind: 'real_time', per_move_seconds: 600, reserve_seconds: 30 } });
  await waitSettled(page);
  await page.waitForSelector('[data-your-turn]');
  assert.match(await page.textContent('[data-clock]'), /600 s per move \+ 30 s reserve/);
  const mine = '[data-clock-seat="0"] [data-clock-left]';
  await page.waitForSelector(mine + '[data-ms]');
  const first = { ms: Number(await page.getAttribute(mine, 'data-ms')), text: await page.textContent(mine) };
  // The move's own 600 s count first; the server's deadline is the move's start + 630 s.
  assert.ok(first.ms > 0 && first.ms <= 630000, `time left ${first.ms}`);
  assert.match(first.text, /^(9|10):\d\d for this move$/);
  assert.equal(await page.textContent('[data-clock-seat="0"] [data-clock-reserve]'), 'reserve 0:30');
  // The bot's seat is not thinking: no countdown, only its reserve.
  assert.equal(await page.textContent('[data-clock-seat="1"] [data-clock-left]'), '');
  assert.equal(await page.textContent('[data-clock-seat="1"] [data-clock-reserve]'), 'reserve 0:30');
  assert.equal(await page.$(mine + '[data-clock-low]'), null);
  // The tick rewrites the clock's text only: a node of the board stays the same node.
  await page.evaluate(() => {
    document.querySelector('[data-board]').firstElementChild.dataset.sameNode = '1';
  });
  await page.waitForFunction(({ sel, ms }) => Number(document.querySelector(sel).dataset.ms) <= ms - 2000, { sel: mine, ms: first.ms }, { timeout: 10000 });
  const later = { ms: Number(await page.getAttribute(mine, 'data-ms')), text: await page.textContent(mine) };
  assert.ok(later.ms < first.ms, `${later.ms} < ${first.ms}`);
  assert.notEqual(later.text, first.text);
  assert.ok(await page.$('[data-board] > [data-same-node="1"]'), 'the board was not redrawn by the clock');
  await screenshot(page, 'shell-clock');
  await page.context().close();
});

test('a turn-based clock shows the hours left, with the low-time warning in its last hour', async () => {
  const page = await newPlayer(browser, server.url, { plainBoards: true, lang: 'ja' });
  await createTable(page, { game: 'ghost-at-home', players: 2, clock: { kind: 'turn_based', hours_per_move: 1 } });
  await waitSettled(page);
  await page.waitForSelector('[data-your-turn]');
  const mine = '[data-clock-seat="0"] [data-clock-left]';
  await page.waitForSelector(mine + '[data-clock-low]');
  assert.match(await page.textContent(mine), /^この手の残り(1時間0|0時間5[89])分$/);
  assert.equal(await page.textContent('[data-clock-seat="0"] [data-clock-reserve]'), '');
  await page.context().close();
});

test('a reload in the middle of a game resumes the same state', async () => {
  const page = await newPlayer(browser, server.url, { plainBoards: true });
  await createTable(page, { game: 'secret-moon', players: 4 });
  await playToEnd(page, { maxClicks: 2 }).catch(() => {});
  await waitSettled(page);
  const before = await page.evaluate(() => ({
    version: document.body.dataset.version,
    board: document.querySelector('[data-board]').innerText,
    log: document.querySelectorAll('[data-log] li').length,
  }));
  await page.reload();
  await waitSettled(page);
  const afterReload = await page.evaluate(() => ({
    version: document.body.dataset.version,
    board: document.querySelector('[data-board]').innerText,
    log: document.querySelectorAll('[data-log] li').length,
  }));
  assert.deepEqual(afterReload, before);
  await page.context().close();
});

test('a dropped connection reconnects by itself and play goes on', async () => {
  // A server of its own, restarted on the same port and database.
  const own = await startServer();
  const page = await newPlayer(browser, own.url, { plainBoards: true });
  await createTable(page, { game: 'ghost-at-home', players: 2 });
  await waitSettled(page);
  const version = await page.evaluate(() => document.body.dataset.version);
  await own.stop();
  await page.waitForSelector('[data-reconnecting]', { state: 'visible' });
  const again = await startServer({ dir: own.dir, db: own.db, port: own.port });
  try {
    await page.waitForSelector('[data-reconnecting]', { state: 'hidden', timeout: 20000 });
    await waitSettled(page);
    assert.equal(await page.evaluate(() => document.body.dataset.version), version);
    // The socket also drops without the server going away (network change, proxy).
    await page.evaluate(() => window.takuge.live.dropForTest());
    await page.waitForFunction(() => document.body.dataset.connected === '1');
    const clicks = await playToEnd(page, { maxClicks: 400 });
    assert.ok(clicks > 0);
    await page.waitForSelector('[data-outcome]');
  } finally {
    await page.context().close();
    await again.stop();
    own.cleanup();
  }
});

test('a connection the server closes as lagging (1013) reconnects and shows the table as it is now', async () => {
  const page = await newPlayer(browser, server.url, { plainBoards: true });
  // Between the page and the server: while `lagging`, the server's messages to the
  // first socket are lost on the way, as they are for a client that fell behind.
  let lagging = false;
  let sockets = 0;
  let sentWhileLagging = 0;
  let first = null;
  await page.routeWebSocket(/\/ws$/, (ws) => {
    const n = ++sockets;
    if (n === 1) first = ws;
    const upstream = ws.connectToServer();
    upstream.onMessage((text) => {
      if (!(lagging && n === 1)) ws.send(text);
    });
    ws.onMessage((text) => {
      if (lagging && n === 1 && JSON.parse(text).type === 'act') sentWhileLagging += 1;
      upstream.send(text);
    });
  });
  await page.reload();
  await page.waitForSelector('[data-form=create]');
  try {
    const table = await createTable(page, { game: 'ghost-at-home', players: 2 });
    await waitSettled(page);
    const stale = Number(await page.evaluate(() => document.body.dataset.version));
    lagging = true;
    // One move: the server plays it (and the bot answers at once), the page hears nothing.
    await page.waitForFunction(() => [...document.querySelectorAll('[data-choice]')].some((b) => !b.disabled && b.checkVisibility()), null, { timeout: 10000 });
    await page.evaluate(() => {
      const b = [...document.querySelectorAll('[data-choice]')].find((c) => !c.disabled && c.checkVisibility());
      b.setAttribute('data-test-pick', '');
    });
    await page.click('[data-test-pick]', { timeout: 5000 });
    for (let i = 0; i < 100 && sentWhileLagging === 0; i++) await new Promise((r) => setTimeout(r, 50));
    assert.ok(sentWhileLagging > 0, 'the page sent its move');
    const serverVersion = () =>
      page.evaluate(async (id) => (await (await fetch(`/api/tables/${id}`)).json()).version, table);
    for (let i = 0; i < 100 && (await serverVersion()) <= stale; i++) await new Promise((r) => setTimeout(r, 100));
    const now = await serverVersion();
    assert.ok(now > stale, 'the server moved on');
    assert.equal(Number(await page.evaluate(() => document.body.dataset.version)), stale, 'the page missed it');
    // The server gives up on the socket as it does on one that fell behind.
    await first.close({ code: 1013, reason: 'this connection fell behind; reconnect to resume' });
    await page.waitForFunction((v) => Number(document.body.dataset.version) >= v && document.body.dataset.connected === '1', now, { timeout: 20000 });
    await waitSettled(page);
    assert.ok(sockets >= 2, 'it reconnected');
    assert.equal(Number(await page.evaluate(() => document.body.dataset.version)), await serverVersion());
  } finally {
    await page.context().close();
  }
});

test('an act refused as unavailable (its table moving between servers) is sent again with the same id', async () => {
  const page = await newPlayer(browser, server.url, { plainBoards: true });
  // Between the page and the server: the first act is answered `unavailable` (nothing
  // played, as a node handing the table over answers) instead of reaching the server.
  const acts = [];
  await page.routeWebSocket(/\/ws$/, (ws) => {
    const upstream = ws.connectToServer();
    ws.onMessage((text) => {
      const msg = JSON.parse(text);
      if (msg.type === 'act') {
        acts.push(msg);
        if (acts.length === 1) {
          ws.send(JSON.stringify({ protocol: 1, type: 'error', table: msg.table, ref: msg.ref, code: 'unavailable', message: 'moving' }));
          return;
        }
      }
      upstream.send(text);
    });
  });
  // The lobby's socket opened before the route: a new page load opens one through it.
  await page.reload();
  await page.waitForSelector('[data-form=create]');
  try {
    await createTable(page, { game: 'ghost-at-home', players: 2 });
    await waitSettled(page);
    const clicks = await playToEnd(page, { maxClicks: 400 });
    assert.ok(clicks > 0);
    await page.waitForSelector('[data-outcome]');
    assert.ok(acts.length >= 2);
    assert.equal(acts[1].id, acts[0].id, 'sent again under the same id');
    assert.equal(acts[1].version, acts[0].version);
  } finally {
    await page.context().close();
  }
});

test('switching to Japanese shows Japanese and is remembered', async () => {
  const page = await newPlayer(browser, server.url);
  assert.equal(await page.textContent('main h1'), 'Lobby');
  await page.click('[data-lang=ja]');
  await page.waitForFunction(() => document.querySelector('main h1').textContent === 'ロビー');
  assert.equal(await page.getAttribute('html', 'lang'), 'ja');
  assert.match(await page.textContent('[data-form=create]'), /卓を立てる/);
  // Game names come from the catalog's Japanese names.
  assert.match(await page.textContent('[data-create=game]'), /シークレットムーン/);
  await page.reload();
  await page.waitForSelector('[data-form=create]');
  assert.equal(await page.textContent('main h1'), 'ロビー');
  await page.click('[data-lang=en]');
  await page.waitForFunction(() => document.querySelector('main h1').textContent === 'Lobby');
  await page.context().close();
});

test("the rules pages list every game and show one game's rules", async () => {
  const page = await newPlayer(browser, server.url);
  await page.click('#header a[href="/rules"]');
  await page.waitForSelector('.game-list');
  for (const g of ['secret-moon', 'ghost-for-sale', 'art-heist', 'ghost-at-home', 'bitoku']) assert.ok(await page.$(`.game-list a[href="/rules/${g}"]`), g);
  await page.click('a[href="/rules/ghost-at-home"]');
  await page.waitForSelector('[data-rules=ghost-at-home]');
  assert.ok((await page.textContent('[data-rules]')).trim().length > 20);
  assert.match(await page.textContent('main'), /2–4 players · 20 min · age 8\+/);
  await page.context().close();
});

test('the keyboard alone gets a guest into the lobby and a table created', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(server.url + '/login');
  await page.waitForSelector('[data-action=guest]');
  for (let i = 0; i < 20 && !(await page.evaluate(() => document.activeElement && document.activeElement.dataset.action === 'guest')); i++) await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await page.waitForSelector('[data-form=create]');
  await page.focus('[data-create=submit]');
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/t\/\d+/);
  await page.waitForSelector('[data-fill-bots]');
  await context.close();
});

test('the replay viewer steps forward and back and changes perspective', async () => {
  const page = await newPlayer(browser, server.url, { plainBoards: true });
  const id = await createTable(page, { game: 'ghost-at-home', players: 2 });
  await playToEnd(page, { maxClicks: 400 });
  await screenshot(page, 'shell-result');
  await page.click('a[href^="/replay/"]');
  await page.waitForSelector('[data-replay-forward]');
  const step = () => page.evaluate(() => Number(document.body.dataset.replayStep));
  assert.equal(await step(), 0);
  // Step 0 does not spoil the end: the result waits for the last step or a click.
  const result = () => page.locator('[data-replay-result] [data-outcome]').count();
  assert.equal(await result(), 0, 'no result at step 0');
  await page.waitForSelector('[data-replay-show-result]');
  await page.click('[data-replay-forward]');
  await page.click('[data-replay-forward]');
  assert.equal(await step(), 2);
  assert.equal(await page.locator('[data-log] li').count(), 2);
  await page.click('[data-replay-back]');
  assert.equal(await step(), 1);
  await page.keyboard.press('ArrowRight');
  assert.equal(await step(), 2);
  assert.equal(await result(), 0, 'no result mid-replay');
  await page.click('[data-replay-last]');
  assert.ok((await step()) > 2);
  assert.equal(await result(), 1, 'the result at the last step');
  await page.selectOption('[data-replay-seat]', '');
  await page.waitForURL(new RegExp(`/replay/${id}$`));
  await page.waitForSelector('[data-replay-forward]');
  assert.equal(await step(), 0);
  assert.equal(await result(), 0);
  await page.click('[data-replay-show-result]');
  assert.equal(await result(), 1, 'shown when asked');
  await screenshot(page, 'shell-replay');
  await page.context().close();
});

// A board that shows its ctx.draft and offers the legal actions as plain buttons, served in
// place of a game's board module: the shell's draft rules checked without a game board.
const PROBE_BOARD = `
export default {
  render(root, ctx) {
    ctx.draft.mark = ctx.draft.mark || 0;
    const shown = document.createElement('p');
    shown.dataset.probeDraft = String(ctx.draft.mark);
    shown.textContent = 'draft ' + ctx.draft.mark;
    const mark = document.createElement('button');
    mark.dataset.probeMark = '';
    mark.textContent = 'mark';
    mark.onclick = () => { ctx.draft.mark += 1; ctx.rerender(); };
    const choices = ctx.legal.map((l) => {
      const b = document.createElement('button');
      b.dataset.choice = '';
      b.textContent = l.label;
      b.onclick = () => ctx.send(l.action).catch(() => {});
      return b;
    });
    root.replaceChildren(shown, mark, ...choices);
  },
};`;

async function probeBoard(page, game) {
  await page.context().route(`**/games/${game}/board.js`, (r) => r.fulfill({ contentType: 'text/javascript', body: PROBE_BOARD }));
}

// Simultaneous secret choices (Art Heist's places: every seat chooses at once): another
// seat's choice makes a new version, but this seat's half-built choice stays; once this
// seat has acted, its draft starts afresh.
test("a seat's draft survives another seat's move while it stays pending on the same decision", async () => {
  const a = await newPlayer(browser, server.url);
  await probeBoard(a, 'art-heist');
  const id = await createTable(a, { game: 'art-heist', players: 5, bots: false, start: false });
  const b = await newPlayer(browser, server.url);
  await probeBoard(b, 'art-heist');
  await joinTable(b, id);
  await a.click('[data-fill-bots]');
  await a.waitForSelector('[data-start]:not([disabled])');
  await a.click('[data-start]');
  for (const p of [a, b]) {
    await waitSettled(p);
    await p.waitForSelector('[data-board] [data-choice]');
  }
  await b.click('[data-probe-mark]');
  await b.waitForSelector('[data-probe-draft="1"]');
  const choices = await b.$$eval('[data-board] [data-choice]', (els) => els.map((e) => e.textContent));
  const v0 = Number(await b.evaluate(() => document.body.dataset.version));
  await a.click('[data-board] [data-choice]');
  await b.waitForFunction((v) => Number(document.body.dataset.version) > v && document.body.dataset.busy === undefined, v0);
  assert.deepEqual(await b.$$eval('[data-board] [data-choice]', (els) => els.map((e) => e.textContent)), choices, 'B is still on the same decision');
  assert.ok(await b.$('[data-probe-draft="1"]'), "B's draft survived A's move");
  // B acts: the decision is made, and the draft goes with it.
  await b.click('[data-board] [data-choice]');
  await waitSettled(b);
  await b.waitForSelector('[data-probe-draft="0"]');
  await a.context().close();
  await b.context().close();
});

// Bots of one kind are told apart by seat, the same way in the seat list, the log and the
// result; the log grows line by line (earlier lines are not drawn again) and follows the
// newest line.
// The host picks each bot seat's level in the seat list (issue 16): an empty seat gets a
// bot, a bot seat changes level, and the level shows by the seat once the game runs.
test("the host picks each bot seat's level in the seat list", async () => {
  const page = await newPlayer(browser, server.url);
  const id = await createTable(page, { game: 'ghost-for-sale', players: 3, bots: false, start: false });
  await page.selectOption('[data-seat-bot="1"]', 'strong');
  await page.waitForFunction(() => document.querySelector('[data-seat-bot="1"]')?.value === 'strong' && !document.querySelector('[data-seat-bot="1"]').disabled);
  await page.selectOption('[data-seat-bot="2"]', 'easy');
  await page.waitForSelector('[data-start]:not([disabled])');
  await page.selectOption('[data-seat-bot="2"]', 'normal');
  await page.waitForFunction(() => document.querySelector('[data-seat-bot="2"]')?.value === 'normal' && !document.querySelector('[data-seat-bot="2"]').disabled);
  assert.equal(await page.$('[data-seat-bot="0"]'), null, "the host's own seat has no bot picker");
  const info = await page.evaluate(async (t) => (await fetch('/api/tables/' + t)).json(), id);
  assert.deepEqual(info.seats.map((s) => s.bot), [null, 'strong', 'normal']);
  await page.click('[data-abandon]');
  await page.context().close();
});

test('bot seats have distinct names in the seat list, the log and the result', async () => {
  const page = await newPlayer(browser, server.url, { plainBoards: true });
  await createTable(page, { game: 'ghost-at-home', players: 4 });
  const names = await page.$$eval('[data-seats] [data-seat] .seat-name', (els) => els.map((e) => e.textContent));
  const bots = names.filter((n) => n !== page.takugeName);
  assert.equal(bots.length, 3);
  assert.equal(new Set(bots).size, 3, `distinct bot names: ${bots}`);
  // The rule bot by its name in the reader's language (`bot.rules`), numbered by seat.
  for (const n of bots) assert.match(n, /^Rule-follower [1-4] \(bot\)$/);
  let marked = false;
  await playToEnd(page, {
    maxClicks: 400,
    onStep: async (p) => {
      if (!marked) marked = await p.evaluate(() => !!document.querySelector('[data-log] li') && (document.querySelector('[data-log] li').probeMark = true));
    },
  });
  const log = await page.evaluate(() => {
    const lis = [...document.querySelectorAll('[data-log] li')];
    return { first: lis.length > 0 && lis[0].probeMark === true, indices: lis.map((li) => Number(li.dataset.logIndex)), seats: lis.map((li) => li.querySelector('.log-seat').textContent) };
  });
  assert.ok(marked && log.first, 'the first log line is the same element at the end of the game');
  assert.deepEqual(log.indices, [...log.indices].sort((x, y) => x - y), 'the log is in order');
  for (const s of log.seats) if (s) assert.ok(names.includes(s.replace(/: $/, '')), `log seat "${s}" is a seat-list name`);
  assert.ok(log.seats.some((s) => bots.includes(s.replace(/: $/, ''))), 'bots appear in the log by name');
  await page.waitForFunction(() => {
    const l = document.querySelector('[data-log]');
    return l.scrollTop + l.clientHeight >= l.scrollHeight - 4;
  });
  const result = await page.$$eval('[data-outcome] tbody tr', (rows) => rows.map((r) => r.children[1].textContent));
  assert.deepEqual([...result].sort(), [...names].sort());
  // Japanese: the same seats, in Japanese.
  await page.click('[data-lang=ja]');
  await page.waitForFunction(() => document.querySelector('[data-seats] [data-seat] .seat-name') && /（ボット）/.test(document.querySelector('[data-seats]').textContent));
  const ja = await page.$$eval('[data-seats] [data-seat] .seat-name', (els) => els.map((e) => e.textContent));
  assert.equal(new Set(ja).size, 4);
  assert.ok(/（ボット）/.test(await page.textContent('[data-log]')), 'the log speaks of the bots in Japanese too');
  await page.context().close();
});

// A game's option fields follow the player count (Secret Moon's thief from six players:
// 盗賊を加える場合は6人以上), and createTable never reads the previous game's fields.
test('the option fields follow the game and the player count', async () => {
  const page = await newPlayer(browser, server.url);
  const values = (key) => page.$eval(`[data-option="${key}"]`, (e) => JSON.parse(e.dataset.values));
  await page.selectOption('[data-create=game]', 'secret-moon');
  await page.selectOption('[data-create=players]', '4');
  await page.waitForSelector('[data-create=options][data-fields-for="secret-moon:4"]', { state: 'attached' });
  assert.deepEqual(await values('thief'), [false]);
  const three = (await values('games')).indexOf(3);
  await page.selectOption('[data-option="games"]', String(three));
  await page.selectOption('[data-create=players]', '6');
  await page.waitForSelector('[data-create=options][data-fields-for="secret-moon:6"]', { state: 'attached' });
  assert.deepEqual(await values('thief'), [false, true]);
  assert.equal(await page.$eval('[data-option="games"]', (e) => e.value), String(three), 'a choice still offered is kept');
  // Straight from Secret Moon's fields to another game's options.
  const id = await createTable(page, { game: 'ghost-at-home', players: 3, options: { special_cards: true }, bots: false, start: false });
  const info = await page.evaluate((id) => fetch('/api/tables/' + id).then((r) => r.json()), id);
  assert.equal(info.options.special_cards, true);
  await page.context().close();
});
