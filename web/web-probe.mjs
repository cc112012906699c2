import { startServer, launchBrowser, newPlayer, createTable } from '/work/main/web/tests/lib.mjs';
const srv = await startServer();
const browser = await launchBrowser();
try {
  const host = await newPlayer(browser, srv.url);
  await createTable(host, { game: 'art-heist', players: 5, options: { memory_aid: true }, bots: false, start: false });
  const host2 = await newPlayer(browser, srv.url);
  await createTable(host2, { game: 'art-heist', players: 5 });
  console.log('two ok');
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  page.on('console', (m) => console.log('[console]', m.text()));
  page.on('requestfailed', (r) => console.log('[failed]', r.url(), r.failure()?.errorText));
  page.on('response', (r) => { if (r.status() >= 400) console.log('[resp]', r.status(), r.url()); });
  await page.goto(srv.url + '/login');
  await page.waitForTimeout(3000);
  console.log((await page.content()).slice(0, 1500));
} catch (e) { console.log('ERR', e.message); }
await browser.close(); await srv.stop(); srv.cleanup();
