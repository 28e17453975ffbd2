// The page in a real browser (headless Chromium through puppeteer-core) against `oxo gtp`:
// for every variant, a whole game played by clicking the board (random legal moves for the
// person, the shipped model answering), checking at each of the person's turns that an
// illegal click changes nothing, that the legal moves equal `oxo gtp`'s, and that the page's
// nnEval() equals `oxo gtp`'s nn_eval within 1e-4; at the end, the result and scores equal
// `oxo gtp`'s. Run by `scripts/web.sh test` (OXO_BIN names the oxo binary; web/dist built).
import { execFileSync, spawn } from 'node:child_process';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import puppeteer from 'puppeteer-core';

const DIST = fileURLToPath(new URL('../dist/', import.meta.url));
const OXO = process.env.OXO_BIN ?? 'target/release/oxo';
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
// Every registered variant, as `oxo variants` lists them, unless OXO_WEB_VARIANTS names some.
const VARIANTS = process.env.OXO_WEB_VARIANTS?.split(',')
  ?? execFileSync(OXO, ['variants'], { encoding: 'utf8' }).trim().split('\n');
const TOLERANCE = 1e-4;
const TYPES = {
  '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.css': 'text/css', '.wasm': 'application/wasm', '.json': 'application/json',
  '.onnx': 'application/octet-stream',
};

/// A static server over web/dist on a free port of 127.0.0.1.
function serve() {
  const server = createServer((req, res) => {
    const path = normalize(join(DIST, decodeURIComponent(new URL(req.url, 'http://x').pathname)));
    const file = path.endsWith('/') ? join(path, 'index.html') : path;
    if (!file.startsWith(DIST) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/// An `oxo gtp` process: send(command) resolves to its answer (throws on `?`).
function gtp(variant) {
  const child = spawn(OXO, ['gtp', '--variant', variant], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  const waiting = [];
  let answer = [];
  lines.on('line', (line) => {
    if (line === '') {
      if (answer.length) waiting.shift()(answer.join('\n'));
      answer = [];
    } else {
      answer.push(line);
    }
  });
  const send = (command) => new Promise((resolve, reject) => {
    waiting.push((text) => (text.startsWith('=') ? resolve(text.slice(1).trim()) : reject(new Error(`${command}: ${text}`))));
    child.stdin.write(command + '\n');
  });
  return { send, close: () => child.stdin.end() };
}

function check(condition, message) {
  if (!condition) throw new Error(message);
}

function near(a, b, what) {
  check(Math.abs(a - b) <= TOLERANCE, `${what}: page ${a}, oxo gtp ${b}`);
}

/// The page's and oxo gtp's nn_eval of the same position agree within the tolerance.
function compareEval(page, engine, where) {
  near(page.value, engine.value, `${where} value`);
  page.wdl.forEach((p, i) => near(p, engine.wdl[i], `${where} wdl[${i}]`));
  check(Object.keys(page.policy).join() === Object.keys(engine.policy).join(), `${where} policy moves`);
  for (const move of Object.keys(engine.policy)) near(page.policy[move], engine.policy[move], `${where} policy ${move}`);
  check((page.score === undefined) === (engine.score === undefined), `${where} score head`);
  if (engine.score !== undefined) near(page.score, engine.score, `${where} score`);
}

/// Clicks what plays `move`: its cell (with the blacken box set for `#` moves) or Pass.
async function clickMove(page, move) {
  if (move === 'pass') {
    await page.click('#pass');
    return;
  }
  const blacken = move.startsWith('#');
  const checked = await page.$eval('#blacken', (box) => box.checked);
  if (checked !== blacken) await page.click('#blacken');
  await page.click(`rect[data-cell="${blacken ? move.slice(1) : move}"]`);
}

async function waitIdle(page) {
  await page.waitForFunction(() => !window.oxo.busy(), { timeout: 120000 });
}

async function playVariant(browser, base, variant, seed) {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${base}?variant=${variant}&side=X`);
  await page.waitForFunction(() => window.oxo && window.oxo.ready, { timeout: 120000 });
  const engine = gtp(variant);
  let random = seed;
  const next = (n) => { random = (random * 1103515245 + 12345) % 2147483648; return random % n; };
  let synced = 0;
  let turns = 0;
  for (;;) {
    await waitIdle(page);
    const moves = await page.evaluate(() => window.oxo.moves());
    for (; synced < moves.length; synced++) {
      const color = await engine.send('to_move');
      await engine.send(`play ${color} ${moves[synced]}`);
    }
    if (await page.evaluate(() => window.oxo.result()) !== null) break;
    const legal = await page.evaluate(() => window.oxo.legalMoves());
    check(legal.join(' ') === await engine.send('legal_moves'), `${variant}: legal moves after ${moves.join(' ')}`);
    compareEval(await page.evaluate(() => window.oxo.nnEval()), JSON.parse(await engine.send('nn_eval')), `${variant} after ${moves.length} moves`);
    // An illegal click (an occupied or closed cell) is refused with a reason, nothing changes.
    const illegal = await page.$$eval('rect.cell:not(.legal)', (cells) => cells.map((c) => c.dataset.cell));
    if (illegal.length && !(await page.$eval('#blacken', (box) => box.checked))) {
      await page.click(`rect[data-cell="${illegal[next(illegal.length)]}"]`);
      await waitIdle(page);
      check((await page.evaluate(() => window.oxo.moves())).length === moves.length, `${variant}: an illegal click played`);
      check((await page.$eval('#message', (m) => m.textContent)).length > 0, `${variant}: no reason shown`);
    }
    await clickMove(page, legal[next(legal.length)]);
    turns++;
  }
  const result = await page.evaluate(() => window.oxo.result());
  check(result.toLowerCase() === (await engine.send('result')).toLowerCase(), `${variant}: result ${result}`);
  const score = await page.evaluate(() => window.oxo.score());
  if (score !== null) check(score.join(' ') === await engine.send('score'), `${variant}: score ${score}`);
  check(errors.length === 0, `${variant}: page errors: ${errors.join('; ')}`);
  engine.close();
  await page.close();
  console.log(`web test: ${variant}: ${synced} moves, ${turns} clicked, result ${result}${score ? ` (X ${score[0]}, O ${score[1]})` : ''}`);
}

const server = await serve();
const base = `http://127.0.0.1:${server.address().port}/`;
const browser = await puppeteer.launch({
  executablePath: CHROMIUM,
  headless: true,
  args: ['--no-sandbox', '--disable-dev-shm-usage'],
});
let failed = false;
try {
  for (const [i, variant] of VARIANTS.entries()) {
    await playVariant(browser, base, variant, 17 + i);
  }
} catch (e) {
  console.error(`web test failed: ${e.stack}`);
  failed = true;
} finally {
  await browser.close();
  server.close();
}
process.exit(failed ? 1 : 0);
