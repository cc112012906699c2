// The board host (web/app/board-host.js, board-sequence.js) in a real browser, through
// the art-heist board: an exhibit of several letters put together by keyboard keeps the
// focus on the art across redraws, and ctx.sendSequence sends its steps in order, one at a
// time, with the seat pending until the last.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, newPlayer, createTable, playToEnd, waitSettled } from './lib.mjs';

let srv;
let browser;

useServerAndBrowser((started) => ({ server: srv, browser } = started));

// Every act the page sends, with what the page showed as it went out: whether this seat
// was still pending, the draft steps the table had acknowledged, and where the focus was.
function recordActs() {
  const send = WebSocket.prototype.send;
  window.__acts = [];
  WebSocket.prototype.send = function (data) {
    try {
      const m = JSON.parse(data);
      if (m.type === 'act') {
        const me = document.querySelector('[data-seats] li.you');
        window.__acts.push({ action: m.action, pending: !!(me && me.classList.contains('pending')), draft: document.body.dataset.draft || '0' });
      }
    } catch {
      // Not JSON: not ours to record.
    }
    return send.call(this, data);
  };
}

// The hand's art by letter: {letter: [id, …]}.
async function handByLetter(page) {
  return page.$$eval('.ah-hand-art [data-art]', (els) => {
    const out = {};
    for (const el of els) {
      const l = (el.className.match(/\bs-([A-Z])\b/) || [])[1];
      (out[l] = out[l] || []).push(Number(el.getAttribute('data-art')));
    }
    return out;
  });
}

// Presses Enter on the element with this focus key and waits for the redraw; returns the
// focus key of the element focused afterwards.
async function pressOn(page, key) {
  const renders = await page.evaluate(() => Number(document.body.dataset.renders || 0));
  await page.focus(`[data-board] [data-focus-key="${key}"]`);
  await page.keyboard.press('Enter');
  await page.waitForFunction((r) => Number(document.body.dataset.renders || 0) > r, renders, { polling: 20 });
  return page.evaluate(() => document.activeElement && document.activeElement.getAttribute('data-focus-key'));
}

// Tries to put together an exhibit of two letters or more by keyboard; returns the cards
// chosen by letter, or null (nothing of the kind on offer now: the selection is cleared).
async function buildExhibit(page) {
  if (!(await page.$('.ah-hand-art button[data-art].is-choice'))) return null;
  const hand = await handByLetter(page);
  const letters = Object.keys(hand).sort();
  for (let lo = 0; lo < letters.length; lo++) {
    for (let hi = letters.length - 1; hi > lo; hi--) {
      const run = letters.slice(lo, hi + 1);
      const connected = run.every((l, i) => i === 0 || l.charCodeAt(0) === run[i - 1].charCodeAt(0) + 1);
      const ids = run.flatMap((l) => hand[l]);
      if (!connected || ids.length < 3) continue;
      const chosen = {};
      let ok = true;
      for (const l of run) {
        for (const id of hand[l]) {
          if (!(await page.$(`.ah-hand-art button[data-art="${id}"].is-choice`))) {
            ok = false;
            break;
          }
          // The board draws the hand anew; the host puts the focus back on this card.
          assert.equal(await pressOn(page, `art ${id}`), `art ${id}`, 'the focus stays on the card just chosen');
          (chosen[l] = chosen[l] || []).push(id);
        }
        if (!ok) break;
      }
      if (ok && (await page.$('.ah-controls .ah-primary'))) return chosen;
      const clear = await page.$('.ah-controls [data-undo]');
      if (clear) {
        const renders = await page.evaluate(() => Number(document.body.dataset.renders || 0));
        await clear.click();
        await page.waitForFunction((r) => Number(document.body.dataset.renders || 0) > r, renders, { polling: 20 });
      }
    }
  }
  return null;
}

class Done extends Error {}

test('an exhibit of several letters chosen by keyboard keeps the focus, goes out step by step in order, and the seat stays pending until the last step', async () => {
  const page = await newPlayer(browser, srv.url);
  await createTable(page, { game: 'art-heist', players: 5 });
  await page.waitForSelector('.ah-track');
  // Record from a fresh document: the table page again, with the WebSocket patched.
  await page.context().addInitScript(recordActs);
  await page.reload();
  await page.waitForSelector('.ah-track');
  await waitSettled(page);

  let exhibit = null;
  let acts = null;
  try {
    await playToEnd(page, {
      maxClicks: 1500,
      onStep: async (p) => {
        const chosen = await buildExhibit(p);
        if (!chosen) return;
        const before = await p.evaluate(() => window.__acts.length);
        await p.focus('.ah-controls .ah-primary');
        await p.keyboard.press('Enter');
        const steps = 1 + Object.keys(chosen).length;
        // Every step acknowledged, and the board no longer "laying out" the exhibit.
        await p.waitForFunction(
          ({ before, steps }) => window.__acts.length >= before + steps && document.body.dataset.busy === undefined && !document.querySelector('.ah-building .muted'),
          { before, steps },
          { timeout: 30000, polling: 50 },
        );
        exhibit = chosen;
        acts = (await p.evaluate(() => window.__acts)).slice(before);
        throw new Done();
      },
    });
  } catch (e) {
    if (!(e instanceof Done)) throw e;
  }
  assert.ok(exhibit, 'an exhibit of two letters or more came up before the game ended');

  const letters = Object.keys(exhibit).sort();
  assert.equal(acts.length, 1 + letters.length, 'one act per step, none twice');
  assert.deepEqual(acts[0].action, { exhibit: { from: letters[0], to: letters[letters.length - 1] } }, 'the letters first');
  letters.forEach((l, i) => {
    const step = acts[i + 1];
    assert.deepEqual(step.action, { cards: [...exhibit[l]].sort((a, b) => a - b) }, `then the cards of ${l}, in letter order`);
    // Sent once the table had taken the steps before it, the seat still pending.
    assert.equal(step.draft, String(i + 1), `step ${i + 2} goes out after ${i + 1} acknowledged draft steps`);
    assert.ok(step.pending, `the seat is still pending as step ${i + 2} goes out`);
  });
  assert.ok(acts[0].pending, 'pending as the first step goes out');
  // No refusal on the way.
  assert.equal(await page.evaluate(() => document.querySelector('[data-error]').hidden), true);
  await page.context().close();
});
