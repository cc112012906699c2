// Secret Moon in a real browser: whole games by clicking, the multi-step turn and its undo,
// secrets kept between two players at one table, reload, Japanese, a phone screen.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, newPlayer, createTable, joinTable, playToEnd, screenshot, waitSettled } from './lib.mjs';

const GAME = 'secret-moon';
let srv;
let browser;

useServerAndBrowser((started) => ({ server: srv, browser } = started));

// Everything the board states about cards and order numbers: public facts (data-fact) and
// this seat's secrets (data-secret), as "attr=value" strings.
function facts(page) {
  return page.evaluate(() => {
    const out = [];
    for (const el of document.querySelectorAll('.sm-board [data-fact], .sm-board [data-secret]')) {
      if (el.hasAttribute('data-fact')) out.push('fact=' + el.getAttribute('data-fact'));
      if (el.hasAttribute('data-secret')) out.push('secret=' + el.getAttribute('data-secret'));
    }
    return out.sort();
  });
}

const secretsOf = (list) => list.filter((f) => f.startsWith('secret=')).map((f) => f.slice(7));
const valuesOf = (list) => new Set(list.map((f) => f.slice(f.indexOf('=') + 1)));

// Our turn with nothing picked yet: the seven action buttons are offered.
async function waitOurTurn(page, timeout = 30000) {
  await page.waitForFunction(() => document.querySelector('[data-outcome]') || (document.body.dataset.busy === undefined && document.querySelector('.sm-action[data-choice]')), null, { timeout, polling: 50 });
  return !(await page.$('[data-outcome]'));
}

// The lobby form draws a game's option fields asynchronously after the game is chosen;
// choosing Secret Moon first and waiting for its fields keeps createTable from reading
// another game's fields.
async function lobbyWithOurOptions(page) {
  await page.goto(new URL('/', page.url()).toString());
  await page.waitForSelector('[data-form=create]');
  await page.selectOption('[data-create=game]', GAME);
  await page.waitForSelector('[data-option="thief"]');
}

const version = (page) => page.evaluate(() => Number(document.body.dataset.version));

// Rules text: 「規定回数のゲームを行い、最終的に最も勝利点を多く得たプレイヤーが勝者となります」 — a game
// is played to its result, here one game of five players against bots, only by clicking.
test('a player plays a whole game against bots to its result by clicking', async () => {
  const page = await newPlayer(browser, srv.url);
  await createTable(page, { game: GAME, players: 5 });
  assert.ok(await page.$('.sm-board'), 'the Secret Moon board is drawn, not the fallback');
  let shot = false;
  const clicks = await playToEnd(page, {
    maxClicks: 300,
    onStep: async (p) => {
      if (!shot && (await p.$('.sm-action[data-choice]'))) {
        await screenshot(p, 'secret-moon');
        shot = true;
      }
    },
  });
  assert.ok(clicks >= 0);
  await page.waitForSelector('.sm-final');
  const final = await page.textContent('.sm-final');
  assert.match(final, /wins/);
  // Every card is shown at the end (「ゲーム終了」: the result lists all roles).
  assert.equal(await page.$$eval('.sm-character.back', (els) => els.length), 0);
  await page.context().close();
});

// 追加カード:盗賊 (six or more players) and 「3ゲームマッチ、5ゲームマッチを選べます」: a three-game
// match with the thief at eight players is played through, answers to questions included.
test('the thief variant in a three-game match plays through every game', async () => {
  const page = await newPlayer(browser, srv.url);
  await lobbyWithOurOptions(page);
  await createTable(page, { game: GAME, players: 8, options: { games: 3, thief: true } });
  assert.match(await page.textContent('.sm-gamecount'), /1 of 3/);
  await playToEnd(page, { maxClicks: 600, seed: 7 });
  await page.waitForSelector('.sm-results li');
  assert.equal(await page.$$eval('.sm-results li', (els) => els.length), 3);
  await page.context().close();
});

// A turn is two or three clicks (target, action, and for 指名 the role); every step before
// the last can be taken back, and nothing is sent until the action is whole.
test('a nomination is built on the table and can be undone before it is sent', async () => {
  const page = await newPlayer(browser, srv.url);
  for (let attempt = 0; ; attempt++) {
    await createTable(page, { game: GAME, players: 4 });
    if (await waitOurTurn(page)) break;
    assert.ok(attempt < 4, 'a game where our turn comes');
  }
  const v0 = await version(page);
  await page.click('.sm-action.action-nominate');
  await page.waitForSelector('[data-undo]');
  assert.equal(await page.$$eval('.sm-action[data-choice]', (els) => els.length), 0, 'the action is chosen');
  assert.ok((await page.$$('.sm-character.choosable[data-choice]')).length > 0, 'its targets glow');
  await page.click('[data-undo]');
  await page.waitForSelector('.sm-action.action-nominate');
  // Target first this time, then the action, then the role.
  await page.click('.sm-others .sm-character[data-choice]');
  await page.waitForSelector('.sm-character.picked');
  await page.click('.sm-action.action-nominate');
  await page.waitForSelector('.sm-role-choice[data-choice]');
  const roles = await page.$$eval('.sm-role-choice', (els) => els.map((e) => e.textContent.trim()));
  assert.deepEqual(roles, ['Princess', 'Traveller', 'Minister', 'Monk', 'Soldier'], 'no thief without the option');
  await screenshot(page, 'secret-moon-nominate');
  assert.equal(await version(page), v0, 'nothing sent yet');
  // Back one step: the action again, the target still picked; back again: nothing picked.
  await page.click('[data-undo]');
  await page.waitForSelector('.sm-action.action-nominate');
  assert.ok(await page.$('.sm-character.picked'));
  await page.click('[data-undo]');
  await page.waitForFunction(() => !document.querySelector('.sm-character.picked') && !document.querySelector('[data-undo]'));
  await page.click('.sm-action.action-nominate');
  await page.click('.sm-others .sm-character[data-choice]');
  await page.click('.sm-role-choice[data-choice]');
  await page.waitForFunction((v) => Number(document.body.dataset.version) > v, v0);
  await page.context().close();
});

// 「基本的に誰にどのカードが配られたのかは分かりません」 and the order numbers
// 「行動順カードによる順番は公開されません」: two players at one table see their own cards and
// numbers, never each other's — except the princess and the traveller, who know each other
// (「お互いの役割を知ることができます」).
test('two players at one table see only their own secrets', async () => {
  const a = await newPlayer(browser, srv.url);
  const b = await newPlayer(browser, srv.url);
  // A moment where both show the same version, waiting for one of them (bots are quick);
  // a game the bots end before either of us acts is set up again.
  let fa;
  let fb;
  for (let attempt = 0; !fa; attempt++) {
    assert.ok(attempt < 3, 'a game where one of us gets to act');
    await lobbyWithOurOptions(a);
    // The table option that shows the order (off: the rules) is offered with the others.
    assert.ok(await a.$('[data-option="public_order"]'), 'the public_order option is in the form');
    const id = await createTable(a, { game: GAME, players: 6, options: { games: 1, thief: true }, bots: false, start: false });
    await joinTable(b, id);
    await a.click('[data-fill-bots]');
    await a.waitForSelector('[data-start]:not([disabled])');
    await a.click('[data-start]');
    await a.waitForSelector('.sm-board');
    await b.waitForSelector('.sm-board');
    for (let i = 0; ; i++) {
      assert.ok(i < 400, 'both players settle on one state');
      await waitSettled(a);
      await waitSettled(b);
      if ((await a.$('[data-outcome]')) && (await b.$('[data-outcome]'))) break;
      const [va, vb] = [await version(a), await version(b)];
      const waiting = (await a.$('[data-choice]')) || (await b.$('[data-choice]'));
      if (va === vb && waiting) {
        const [xa, xb] = [await facts(a), await facts(b)];
        if ((await version(a)) === va && (await version(b)) === vb) {
          [fa, fb] = [xa, xb];
          break;
        }
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  const seatA = Number(secretsOf(fa).find((s) => s.startsWith('yourrole ')).split(' ')[1]);
  const seatB = Number(secretsOf(fb).find((s) => s.startsWith('yourrole ')).split(' ')[1]);
  assert.notEqual(seatA, seatB);
  for (const [mine, theirs, me, them] of [
    [fa, fb, seatA, seatB],
    [fb, fa, seatB, seatA],
  ]) {
    const secrets = secretsOf(mine);
    assert.ok(secrets.some((s) => s.startsWith(`yourrole ${me} `)), 'your own role is shown');
    const partners = secretsOf(theirs).includes(`partner ${them} ${me}`);
    const theirValues = valuesOf(theirs);
    for (const s of secrets) {
      // What this seat knows of the other's own card, the other knows too.
      if (s.startsWith(`role p${them} `)) continue;
      if (partners && s.startsWith(`role p${me} `)) {
        assert.ok(theirValues.has(s), 'the partner sees your card');
        continue;
      }
      assert.ok(!theirValues.has(s), `seat ${them} must not see seat ${me}'s secret "${s}"`);
    }
    // 「行動順カードによる順番は公開されません」: the other's order number is not drawn at all (its
    // card shows the back) — neither of us has acted yet, so neither took a card by passing.
    assert.deepEqual(
      mine.filter((f) => f.startsWith(`fact=order ${them} `) || f.startsWith(`secret=order ${them} `)),
      [],
      `seat ${me} sees no order number of seat ${them}`,
    );
    // While this seat's card is its secret, the other seat draws no role on it at all.
    const roleOfMine = theirs.filter((f) => f.includes(` p${me} `));
    if (!partners && secrets.some((s) => s.startsWith(`role p${me} `))) {
      assert.deepEqual(roleOfMine, [], `seat ${them} draws no role on seat ${me}'s face-down card`);
    }
  }

  // 質問 between the two: with the thief in the game every questioned player chooses the
  // answer (「盗賊は…どちらで答えるかを選択できる」), so the other is asked, and its marker
  // then lies on the table for both.
  let asked = false;
  let ended = false;
  for (let i = 0; i < 30 && !asked; i++) {
    await waitSettled(a);
    await waitSettled(b);
    ended = !!((await a.$('[data-outcome]')) || (await b.$('[data-outcome]')));
    if (ended) break;
    const turnA = await a.$('.sm-action.action-question');
    const turnB = await b.$('.sm-action.action-question');
    if (!turnA && !turnB) {
      await new Promise((r) => setTimeout(r, 100));
      continue;
    }
    const [asker, target, targetSeat] = turnA ? [a, b, seatB] : [b, a, seatA];
    const card = `.sm-character[data-card="p${targetSeat}"][data-choice]`;
    if (await asker.$(card)) {
      await asker.click(card);
      await asker.click('.sm-action.action-question');
      await target.waitForSelector('.sm-answer-choice[data-choice]');
      await asker.waitForSelector(`[data-seat="${targetSeat}"].asked`);
      await screenshot(target, 'secret-moon-answer');
      await target.click('.sm-answer-choice[data-choice]');
      await asker.waitForSelector(`[data-seat="${targetSeat}"] .sm-answer-marker`);
      await target.waitForSelector(`[data-seat="${targetSeat}"] .sm-answer-marker`);
      asked = true;
    } else {
      // The other is protected or captured this round: pass, and take a card if offered.
      await asker.click('.sm-action.action-pass');
      await waitSettled(asker);
      if (await asker.$('.sm-discard [data-choice]')) await asker.click('.sm-discard [data-choice]');
    }
  }
  assert.ok(asked || ended, 'one of the two questioned the other before the game ended');
  await a.context().close();
  await b.context().close();
});

// Reconnecting (here a reload) resumes exactly: the server's state, drawn the same way.
// The turn before it is played with the keyboard alone.
test('a reload mid-game resumes the same state', async () => {
  const page = await newPlayer(browser, srv.url);
  for (let attempt = 0; ; attempt++) {
    assert.ok(attempt < 5, 'a game that lasts past our first turn');
    await createTable(page, { game: GAME, players: 4 });
    if (!(await waitOurTurn(page))) continue;
    // One whole turn of ours first, by keyboard: the action, then (focus having moved on
    // to the targets) the card.
    const v0 = await version(page);
    if (await page.$('.sm-action.action-observe')) {
      await page.focus('.sm-action.action-observe');
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => document.activeElement?.matches('.sm-character[data-choice]'));
      await page.keyboard.press('Enter');
    } else {
      await page.focus('.sm-action.action-pass');
      await page.keyboard.press('Enter');
    }
    await page.waitForFunction((v) => Number(document.body.dataset.version) > v, v0);
    await waitSettled(page);
    if (await page.$('.sm-discard [data-choice]')) {
      await page.click('.sm-discard [data-choice]');
      await waitSettled(page);
    }
    if (await waitOurTurn(page)) break;
  }
  const before = { version: await version(page), facts: await facts(page), prompt: await page.textContent('.sm-prompt') };
  await page.reload();
  await waitSettled(page);
  await page.waitForSelector('.sm-action[data-choice]');
  const after = { version: await version(page), facts: await facts(page), prompt: await page.textContent('.sm-prompt') };
  assert.deepEqual(after, before);
  await page.context().close();
});

// Game vocabulary in Japanese from the document: 観察・質問・指名…, 姫・旅人・大臣…, 捨て札山.
test('switching to Japanese shows the game in its own words', async () => {
  const page = await newPlayer(browser, srv.url, { viewport: { width: 390, height: 844 } });
  for (let attempt = 0; ; attempt++) {
    assert.ok(attempt < 5, 'a game where our turn comes');
    await createTable(page, { game: GAME, players: 6 });
    if (await waitOurTurn(page)) break;
  }
  await page.click('[data-lang=ja]');
  await page.waitForFunction(() => document.querySelector('.sm-action.action-observe')?.textContent.includes('観察'));
  const text = await page.textContent('.sm-board');
  for (const word of ['質問', '指名', 'パス', '捨て札山', '行動順']) assert.ok(text.includes(word), `shows ${word}`);
  assert.match(await page.textContent('.sm-your-role'), /あなたは(姫|旅人|大臣|僧侶|兵士)/);
  await screenshot(page, 'secret-moon-phone-ja');
  // Readable on a phone: the board fits the screen's width.
  const overflow = await page.evaluate(() => document.querySelector('.sm-board').scrollWidth - document.querySelector('.sm-board').clientWidth);
  assert.ok(overflow <= 1, `board overflows by ${overflow}px`);
  await page.context().close();
});
