// Recommendations in the browser (issue 18): other people's shelves (made over HTTP), a
// person who imports a small BoardGameGeek CSV sees "For you" with reasons naming the
// games they like, dismisses one ("Not interested") and undoes it, and the game page
// shows "people who like this also like".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useServerAndBrowser, newPlayer, screenshot, uniqueName } from './lib.mjs';

let server;
let browser;

useServerAndBrowser((started) => ({ server, browser } = started));

const FAMILY = [
  [13, 'Catan'],
  [822, 'Carcassonne'],
  [9209, 'Ticket to Ride'],
  [230802, 'Azul'],
];
const PARTY = [
  [98778, 'Hanabi'],
  [244992, 'The Mind'],
  [129622, 'Love Letter'],
  [178900, 'Codenames'],
];
const csv = (games, rating) => 'objectname,objectid,rating,own\n' + games.map(([id, name]) => `${name},${id},${rating},0\n`).join('');

// A registered account over HTTP that imports `body`.
async function shelfOf(body) {
  const res = await fetch(server.url + '/api/register', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-takuge': '1' },
    body: JSON.stringify({ name: uniqueName('r'), password: 'correct horse 7' }),
  });
  assert.equal(res.status, 200, await res.clone().text());
  const { token } = await res.json();
  const imported = await fetch(server.url + '/api/collections/import', {
    method: 'POST',
    headers: { authorization: 'Bearer ' + token, 'content-type': 'text/csv' },
    body,
  });
  assert.equal(imported.status, 200, await imported.clone().text());
}

const names = (page) => page.$$eval('[data-recs] [data-rec]', (items) => items.map((i) => i.dataset.name));

test('a person with a shelf sees recommendations with reasons and dismisses one', async () => {
  // The first account is the admin: its import lists the games at once (rated 5: liked
  // by nobody's measure). Then five people of each taste.
  await shelfOf(csv([...FAMILY, ...PARTY], 5));
  for (let k = 0; k < 5; k++) {
    await shelfOf(csv(FAMILY, 8 + (k % 2)));
    await shelfOf(csv(PARTY, 8 + (k % 2)));
  }
  const page = await newPlayer(browser, server.url);
  // Import: Catan owned and loved, Carcassonne rated.
  await page.click('#header a[href="/shelf"]');
  await page.click('a[href="/import"]');
  const file = join(server.dir, 'mine.csv');
  writeFileSync(file, 'objectname,objectid,rating,own\nCatan,13,9,1\nCarcassonne,822,8,0\n');
  await page.setInputFiles('[data-form=import] input[type=file]', file);
  await page.click('[data-form=import] button[type=submit]');
  await page.waitForSelector('[data-report] [data-imported="2"]');
  // For you: the model is rebuilt a moment after shelves change; look until it has.
  await page.click('#header a[href="/for-you"]');
  const deadline = Date.now() + 30000;
  for (;;) {
    await page.waitForSelector('[data-recs], [data-recs-empty]');
    const kind = await page.$eval('[data-recs] [data-rec]', (e) => e.dataset.kind).catch(() => null);
    if (kind === 'liked') break;
    assert.ok(Date.now() < deadline, 'no recommendation with a reason within 30 s');
    await new Promise((r) => setTimeout(r, 500));
    await page.reload();
  }
  const list = await names(page);
  assert.deepEqual(list.slice(0, 2).sort(), ['Azul', 'Ticket to Ride']);
  assert.ok(!list.includes('Catan') && !list.includes('Carcassonne'), list.join(', '));
  const reason = await page.textContent('[data-recs] [data-rec]:first-child [data-reason]');
  assert.match(reason, /^Because you like (Catan and Carcassonne|Carcassonne and Catan)$/);
  await screenshot(page, 'for-you');
  // Not interested: gone, and still gone after a reload; then undone.
  const ticket = page.locator('[data-rec][data-name="Ticket to Ride"]');
  await ticket.locator('[data-dismiss]').click();
  await page.waitForSelector('[data-notice]:not([hidden]) [data-undo]');
  assert.equal(await ticket.count(), 0);
  await page.click('[data-notice] [data-undo]');
  await page.waitForSelector('[data-rec][data-name="Ticket to Ride"]');
  await ticket.locator('[data-dismiss]').click();
  await page.waitForSelector('[data-notice]:not([hidden]) [data-undo]');
  await page.reload();
  await page.waitForSelector('[data-recs] [data-rec]');
  assert.ok(!(await names(page)).includes('Ticket to Ride'));
  // In Japanese, the reason too.
  await page.click('button[data-lang=ja]');
  await page.waitForFunction(() => /が好きなあなたに$/.test(document.querySelector('[data-rec] [data-reason]')?.textContent || ''));
  await page.click('button[data-lang=en]');
  await page.waitForSelector('[data-recs] [data-rec]');
  // The game page: people who like Catan also like the other family games.
  await page.click('[data-rec][data-name="Azul"] a');
  await page.waitForSelector('[data-similar] [data-similar-game]');
  const similar = await page.$$eval('[data-similar] a', (as) => as.map((a) => a.textContent));
  assert.ok(similar.length >= 2, similar.join(', '));
  for (const g of similar.slice(0, 3)) assert.ok(FAMILY.some(([, n]) => n === g), `${g} is not a family game`);
  await page.context().close();
});
