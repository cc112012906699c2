// The shelf in the browser (issue 17): sign up, import a small BoardGameGeek CSV, filter
// the shelf by "best with 4" and "under 30 minutes", see a comment's HTML shown as text,
// log a play, and open the shelf's share link signed out; a finished takuge match shows in
// the plays with its replay.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useServerAndBrowser, newPlayer, screenshot, createTable, playToEnd } from './lib.mjs';

let server;
let browser;

useServerAndBrowser((started) => ({ server, browser } = started));

const CSV = `objectname,objectid,rating,numplays,own,prevowned,want,wanttoplay,wishlist,wishlistpriority,comment,minplayers,maxplayers,playingtime,yearpublished,bggbestplayers,bggrecagerange,originalname
Catan,13,7.5,3,1,0,0,0,0,,"<img src=x onerror=alert(1)> classic",3,4,120,1995,4,10+,
Hanabi,98778,8,5,1,0,0,0,0,,,2,5,25,2010,"3,4",8+,
Love Letter,129622,N/A,0,0,0,0,1,1,2,,2,4,20,2012,4,10+,ラブレター
Azul,230802,9,2,1,0,0,0,0,,,2,4,45,2017,2,8+,
`;

const shelfNames = (page) => page.$$eval('[data-shelf] tr[data-entry]', (rows) => rows.map((r) => r.dataset.name));

test('import a BGG export, filter the shelf by best with 4 and under 30 minutes, log a play', async () => {
  const page = await newPlayer(browser, server.url);
  let dialog = false;
  page.on('dialog', (d) => {
    dialog = true;
    d.dismiss();
  });
  // Import.
  await page.click('#header a[href="/shelf"]');
  await page.waitForSelector('[data-shelf] [data-empty]');
  await page.click('a[href="/import"]');
  // A file over the server's limit is refused before it is sent, saying so.
  const big = join(server.dir, 'big.csv');
  writeFileSync(big, 'a'.repeat(9 * 1024 * 1024));
  await page.setInputFiles('[data-form=import] input[type=file]', big);
  await page.click('[data-form=import] button[type=submit]');
  await page.waitForSelector('[data-form=import] [data-error]:not([hidden])');
  assert.match(await page.textContent('[data-form=import] [data-error]'), /9 MB.*8 MB/);
  const file = join(server.dir, 'collection.csv');
  writeFileSync(file, CSV);
  await page.setInputFiles('[data-form=import] input[type=file]', file);
  await page.click('[data-form=import] button[type=submit]');
  await page.waitForSelector('[data-report] [data-imported="4"]');
  // The shelf, then filtered.
  await page.click('[data-report] a[href="/shelf"]');
  await page.waitForSelector('[data-shelf] tr[data-entry]');
  assert.deepEqual((await shelfNames(page)).sort(), ['Azul', 'Catan', 'Hanabi', 'Love Letter']);
  // The comment's HTML is text, not markup.
  const comment = await page.textContent('[data-shelf] tr[data-name="Catan"] .comment');
  assert.equal(comment, '<img src=x onerror=alert(1)> classic');
  assert.equal(await page.$('[data-shelf] img'), null);
  await page.fill('[data-filter=best]', '4');
  await page.fill('[data-filter=max_minutes]', '30');
  await page.selectOption('[data-filter=sort]', 'name_en');
  await page.click('[data-form=shelf-filters] button[type=submit]');
  await page.waitForSelector('[data-shelf] [data-total="2"]');
  assert.deepEqual(await shelfNames(page), ['Hanabi', 'Love Letter']);
  assert.match(page.url(), /best=4/);
  await screenshot(page, 'shelf-filtered');
  // A game page, and a play logged by hand.
  await page.click('[data-shelf] tr[data-name="Hanabi"] a');
  await page.waitForSelector('[data-counts] [data-count=own]');
  assert.match(await page.textContent('[data-counts] [data-count=own]'), /1$/);
  await page.click('#header a[href="/plays"]');
  await page.waitForSelector('[data-form=log-play]');
  const hanabi = await page.$eval('[data-form=log-play] select[name=game]', (s) => [...s.options].find((o) => o.textContent === 'Hanabi').value);
  await page.selectOption('[data-form=log-play] select[name=game]', hanabi);
  await page.fill('[data-form=log-play] input[name=date]', '2026-11-20');
  const rows = page.locator('[data-form=log-play] [data-player]');
  await rows.nth(0).locator('[name=pname]').fill('@' + page.takugeName);
  await rows.nth(0).locator('[name=pscore]').fill('21');
  await rows.nth(0).locator('[name=pwin]').check();
  await rows.nth(1).locator('[name=pname]').fill('<b>Mum</b>');
  await rows.nth(1).locator('[name=pscore]').fill('18');
  await page.click('[data-form=log-play] button[type=submit]');
  await page.waitForSelector('[data-plays] [data-play]');
  const line = await page.textContent('[data-plays] [data-play]');
  assert.match(line, /2026-11-20 Hanabi/);
  assert.match(line, /<b>Mum<\/b> 18/);
  assert.equal(await page.textContent('[data-stats] [data-stat] td:nth-child(3)'), '1');
  assert.ok(await page.$('svg.plot rect'));
  // The share link works signed out.
  const share = `${server.url}/shelf/${page.takugeName}`;
  const other = await browser.newContext();
  const anon = await other.newPage();
  await anon.goto(share);
  await anon.waitForSelector('[data-shelf] tr[data-entry]');
  assert.equal((await shelfNames(anon)).length, 4);
  await other.close();
  assert.equal(dialog, false, 'no script from a comment ran');
  await page.context().close();
});

test('a finished takuge match is in the plays, with its replay', async () => {
  const page = await newPlayer(browser, server.url, { plainBoards: true });
  const id = await createTable(page, { game: 'secret-moon', players: 3 });
  await playToEnd(page);
  await page.click('#header a[href="/plays"]');
  await page.waitForSelector(`[data-plays] a[href="/replay/${id}"]`);
  assert.match(await page.textContent('[data-plays] [data-play]'), /Secret Moon/);
  assert.equal(await page.textContent('[data-stats] [data-stat] td:nth-child(2)'), '1');
  await page.click(`[data-plays] a[href="/replay/${id}"]`);
  await page.waitForURL(new RegExp(`/replay/${id}`));
  // The game page counts it among the recent plays and offers to play now.
  await page.goto(server.url + '/games/secret-moon');
  await page.waitForSelector(`[data-plays] a[href="/replay/${id}"]`);
  await page.click('[data-play-now]');
  await page.waitForSelector('[data-form=create]');
  assert.equal(await page.$eval('[data-filter=game]', (s) => s.value), 'secret-moon');
  await page.context().close();
});
