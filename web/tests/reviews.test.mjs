// Reviews in the browser (issue 17): sign up, write a review on a game's page, a second
// person gives it Nice! and takes it back, the author edits it, and HTML in the text shows
// as text; the game page has no sideways scroll at phone width (390 px). The first account
// is the admin: it sees a report in its queue and hides the review.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useServerAndBrowser, newPlayer, screenshot } from './lib.mjs';

let server;
let browser;
// The first account of the server: an admin (kept for the second test).
let admin;

useServerAndBrowser((started) => ({ server, browser } = started));

const HTML = '<img src=x onerror=alert(1)> <b>not bold</b>';

test('write a review, another gives it Nice! and takes it back, the author edits it; an admin hides a reported one', async () => {
  admin = await newPlayer(browser, server.url);
  const author = await newPlayer(browser, server.url);
  const reader = await newPlayer(browser, server.url, { viewport: { width: 390, height: 844 } });
  let dialog = false;
  for (const p of [admin, author, reader]) {
    p.on('dialog', (d) => {
      dialog = true;
      d.dismiss();
    });
  }

  // The author writes a review whose text holds HTML.
  await author.goto(server.url + '/games/secret-moon');
  await author.waitForSelector('[data-reviews] [data-review-total="0"]');
  await author.fill('[data-form=review] input[name=title]', '<i>月</i>');
  await author.fill('[data-form=review] textarea[name=text]', HTML);
  await author.click('[data-form=review] button[type=submit]');
  await author.waitForSelector('[data-review-list] [data-review]');
  assert.equal(await author.textContent('[data-review] [data-review-text]'), HTML);
  assert.equal(await author.textContent('[data-review] [data-review-title]'), '<i>月</i>');
  assert.equal(await author.$('[data-reviews] img, [data-reviews] b, [data-reviews] i'), null, 'no markup from the text');
  assert.equal(await author.$('[data-review] [data-nice]'), null, 'no Nice! button on one’s own review');

  // A second person (on a phone) gives it Nice!, then takes it back.
  await reader.goto(server.url + '/games/secret-moon');
  await reader.waitForSelector('[data-review] [data-nice]');
  assert.equal(await reader.textContent('[data-review] [data-review-text]'), HTML);
  await reader.click('[data-review] [data-nice]');
  await reader.waitForSelector('[data-review] [data-nice][aria-pressed=true]');
  assert.equal(await reader.textContent('[data-review] [data-likes]'), '1');
  // The count survives a reload, and the most-liked order lists it.
  await reader.reload();
  await reader.click('[data-order=liked]');
  await reader.waitForSelector('[data-review] [data-nice][aria-pressed=true]');
  assert.equal(await reader.textContent('[data-review] [data-likes]'), '1');
  // No sideways scroll at 390 px.
  const overflow = await reader.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `the game page scrolls sideways by ${overflow}px at 390px`);
  await screenshot(reader, 'reviews-phone');
  await reader.click('[data-review] [data-nice]');
  await reader.waitForSelector('[data-review] [data-nice][aria-pressed=false]');
  assert.equal(await reader.textContent('[data-review] [data-likes]'), '0');

  // The author edits it.
  await author.reload();
  await author.waitForSelector('[data-review] [data-edit]');
  await author.click('[data-review] [data-edit]');
  await author.fill('[data-form=edit-review] textarea[name=text]', HTML + '\n追記: 4人がベスト');
  await author.click('[data-form=edit-review] button[type=submit]');
  await author.waitForFunction(() => (document.querySelector('[data-review] [data-review-text]') || {}).textContent?.includes('追記'));
  await reader.reload();
  await reader.waitForSelector('[data-review] [data-review-text]');
  assert.equal(await reader.textContent('[data-review] [data-review-text]'), HTML + '\n追記: 4人がベスト');

  // The reader reports it; the admin hides it from the catalog page.
  await reader.click('[data-review] [data-report]');
  await reader.fill('[data-form=report] input[name=reason]', '<script>spam</script>');
  await reader.click('[data-form=report] button[type=submit]');
  await reader.waitForSelector('[data-review] [data-reported]');
  await admin.click('#header a[href="/admin"]');
  await admin.waitForSelector('[data-report-queue] [data-reported-review]');
  assert.match(await admin.textContent('[data-report-queue] [data-report-reason]'), /<script>spam<\/script>/);
  await admin.click('[data-report-queue] [data-hide]');
  await admin.waitForSelector('[data-report-queue] [data-no-reports]');
  await reader.reload();
  await reader.waitForSelector('[data-reviews] [data-review-total="0"]');
  assert.equal(dialog, false, 'no script from a review ran');
  for (const p of [author, reader]) await p.context().close();
});

test('the catalog page: a registered person proposes a game, the admin approves it', async () => {
  const page = await newPlayer(browser, server.url);
  await page.click('#header a[href="/admin"]');
  await page.waitForSelector('[data-form=add-game]');
  assert.equal(await page.$('[data-report-queue]'), null, 'only an admin sees the reports');
  await page.fill('[data-form=add-game] input[name=name_en]', 'Hanabi');
  await page.fill('[data-form=add-game] input[name=name_ja]', '花火');
  await page.fill('[data-form=add-game] input[name=reading_ja]', 'はなび');
  await page.fill('[data-form=add-game] input[name=min_players]', '2');
  await page.fill('[data-form=add-game] input[name=max_players]', '5');
  await page.click('[data-form=add-game] button[type=submit]');
  await page.waitForSelector('[data-added]:not([hidden])');
  await page.waitForSelector('[data-changes] [data-change]');
  assert.match(await page.textContent('[data-changes] [data-change]'), /Hanabi/);
  assert.equal(await page.$('[data-changes] [data-approve]'), null, 'no decision for a non-admin');
  // The admin approves it; it is in the catalog.
  await admin.goto(server.url + '/admin');
  await admin.waitForSelector('[data-changes] [data-approve]');
  await admin.click('[data-changes] [data-approve]');
  await admin.waitForSelector('[data-changes] [data-no-changes]');
  const res = await fetch(server.url + '/api/catalog?q=hanabi');
  assert.equal((await res.json()).total, 1);
  // The proposer's correction waits for the admin too.
  await page.reload();
  await page.waitForSelector('[data-form=correct]');
  const id = await page.$eval('[data-form=correct] select[name=game]', (s) => [...s.options].find((o) => o.textContent === 'Hanabi').value);
  await page.selectOption('[data-form=correct] select[name=game]', id);
  await page.fill('[data-form=correct] input[name=year]', '2010');
  await page.click('[data-form=correct] button[type=submit]');
  await page.waitForSelector('[data-proposed]:not([hidden])');
  await page.waitForSelector('[data-changes] [data-change]');
  assert.match(await page.textContent('[data-changes] [data-change]'), /year: 2010/);
  await screenshot(admin, 'catalog-admin');
  await page.context().close();
  await admin.context().close();
});
