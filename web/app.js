// oxo in the browser: the rules and the search are oxo's own Rust, compiled to WebAssembly
// (pkg/oxo_web.js); the network is the shipped models/VARIANT/model.onnx in onnxruntime-web,
// served from this site (ort/), nothing fetched from elsewhere. The search is driven from
// here because onnxruntime-web answers asynchronously: while the search has positions
// pending, run the net on them and hand its outputs back.
import init, { WebGame } from './pkg/oxo_web.js';
import * as ort from './ort/ort.wasm.bundle.min.mjs';

// The bundle loads its wasm (ort-wasm-simd-threaded.wasm) from beside itself, in ort/.
// Without cross-origin isolation a page gets no shared memory: one thread.
ort.env.wasm.numThreads = self.crossOriginIsolated ? Math.min(4, navigator.hardwareConcurrency || 1) : 1;

const $ = (id) => document.getElementById(id);
const SVG = 'http://www.w3.org/2000/svg';

const state = {
  game: null,      // WebGame
  variant: null,
  human: 'X',
  net: null,       // { session, play, hasScore }
  lastMove: null,
  thinking: null,  // the promise of the computer's move in progress
  message: '',
};
const nets = new Map();

/// The shipped model of `variant`: its onnxruntime session and its play settings.
async function loadNet(variant) {
  if (!nets.has(variant)) {
    const description = await (await fetch(`models/${variant}/model.json`)).json();
    const session = await ort.InferenceSession.create(`models/${variant}/model.onnx`, {
      executionProviders: ['wasm'],
    });
    nets.set(variant, {
      session,
      play: description.play ?? {},
      hasScore: session.outputNames.includes('score'),
    });
  }
  return nets.get(variant);
}

/// The net's outputs for `n` encoded positions.
async function runNet(inputs, n) {
  const g = state.game;
  const planes = new ort.Tensor('float32', inputs, [n, g.planes(), g.height(), g.width()]);
  const out = await state.net.session.run({ planes });
  return {
    policy: out.policy_logits.data,
    wdl: out.wdl_logits.data,
    score: state.net.hasScore ? out.score.data : new Float32Array(0),
  };
}

/// Lets the computer choose and play a move with the model's search and time budget.
async function computerMove() {
  const g = state.game;
  g.search_begin(JSON.stringify(state.net.play), performance.now());
  while (g.search_pending() > 0) {
    const out = await runNet(g.search_inputs(), g.search_pending());
    g.search_supply(out.policy, out.wdl, out.score, performance.now());
  }
  const move = g.search_move();
  g.play(move);
  state.lastMove = move;
}

/// The computer moves while it is its turn (a variant may give a player several moves).
async function answer() {
  const g = state.game;
  render();
  while (g.to_move() !== undefined && g.to_move() !== state.human) {
    await computerMove();
    render();
  }
}

/// Starts a game of `variant` with the person playing `side` ('X' or 'O').
async function newGame(variant, side) {
  if (state.thinking) await state.thinking;
  state.net = await loadNet(variant);
  state.game = new WebGame(variant);
  state.variant = variant;
  state.human = side;
  state.lastMove = null;
  state.message = '';
  $('variant').value = variant;
  $('side').value = side;
  state.thinking = answer();
  await state.thinking;
  state.thinking = null;
}

/// The person plays `move` (notation); the computer answers. An illegal move changes
/// nothing and the reason is shown. Resolves to { ok, error }.
async function play(move) {
  if (state.thinking) await state.thinking;
  const g = state.game;
  if (g.to_move() !== state.human) {
    state.message = g.result() ? 'the game is over' : 'wait for the computer to move';
    render();
    return { ok: false, error: state.message };
  }
  try {
    g.play(move);
  } catch (e) {
    state.message = e.message;
    render();
    return { ok: false, error: e.message };
  }
  state.lastMove = move;
  state.message = '';
  state.thinking = answer();
  await state.thinking;
  state.thinking = null;
  return { ok: true };
}

/// Takes back moves until it is the person's turn again.
async function undo() {
  if (state.thinking) await state.thinking;
  const g = state.game;
  while (g.undo()) {
    if (g.to_move() === state.human) break;
  }
  state.lastMove = g.moves().at(-1) ?? null;
  state.message = '';
  render();
}

/// The net's own judgement of the position (no search), as `oxo gtp`'s nn_eval prints it.
async function nnEval() {
  const g = state.game;
  const out = await runNet(g.encode(), 1);
  return JSON.parse(g.nn_eval(out.policy, out.wdl, out.score.length ? out.score[0] : undefined));
}

/// The notation of the cell at `row`, `col` (docs/RULES.md: columns A.., rows 1.. from the top).
function cellName(row, col) {
  return String.fromCharCode(65 + col) + (row + 1);
}

function render() {
  const g = state.game;
  const width = g.width();
  const height = g.height();
  const block = g.block();
  const size = Math.floor(Math.min(40, 560 / width));
  const margin = 18;
  const glyphs = [...g.glyphs()];
  const owners = [...g.owners()];
  const legal = new Set(g.to_move() === state.human ? g.legal_moves() : []);
  // Blackening is offered only while it is legal (xando's opening and last turns).
  const canBlacken = g.legal_moves().some((m) => m.startsWith('#'));
  if (!canBlacken) $('blacken').checked = false;
  const blacken = $('blacken').checked;
  const lastCell = state.lastMove ? g.move_cell(state.lastMove) : undefined;

  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('width', margin + width * size + 2);
  svg.setAttribute('height', margin + height * size + 2);
  const add = (tag, attrs, text) => {
    const el = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    if (text !== undefined) el.textContent = text;
    svg.appendChild(el);
    return el;
  };
  for (let col = 0; col < width; col++) {
    add('text', { class: 'coord', x: margin + col * size + size / 2, y: margin / 2 }, String.fromCharCode(65 + col));
  }
  for (let row = 0; row < height; row++) {
    add('text', { class: 'coord', x: margin / 2, y: margin + row * size + size / 2 }, row + 1);
    for (let col = 0; col < width; col++) {
      const cell = row * width + col;
      const glyph = glyphs[cell];
      const name = cellName(row, col);
      const move = blacken ? '#' + name : name;
      const classes = ['cell'];
      if (glyph === '#') classes.push('black');
      else if (glyph === ' ') classes.push('closed');
      else if (glyph !== '.' && glyph !== 'X' && glyph !== 'O') classes.push('special');
      if (owners[cell] !== '.') classes.push(`won-${owners[cell]}`);
      if (legal.has(move)) classes.push('legal');
      if (cell === lastCell) classes.push('last');
      const rect = add('rect', {
        class: classes.join(' '),
        x: margin + col * size, y: margin + row * size, width: size, height: size,
        'data-cell': name,
      });
      rect.addEventListener('click', () => play(move));
      if (glyph === 'X' || glyph === 'O') {
        add('text', { class: `mark ${glyph}`, x: margin + col * size + size / 2, y: margin + row * size + size / 2, 'font-size': size * 0.7 }, glyph);
      } else if (classes.includes('special')) {
        add('text', { class: 'mark special', x: margin + col * size + size / 2, y: margin + row * size + size / 2, 'font-size': size * 0.45 }, glyph);
      }
    }
  }
  if (block > 0) {
    for (let k = block; k < width; k += block) {
      add('line', { class: 'block', x1: margin + k * size, y1: margin, x2: margin + k * size, y2: margin + height * size });
    }
    for (let k = block; k < height; k += block) {
      add('line', { class: 'block', x1: margin, y1: margin + k * size, x2: margin + width * size, y2: margin + k * size });
    }
  }
  $('board').replaceChildren(svg);

  const allLegal = g.legal_moves();
  $('pass').hidden = !allLegal.includes('pass');
  $('pass').disabled = !legal.has('pass');
  $('blacken-mode').hidden = !canBlacken;
  const scores = g.scores();
  const result = g.result();
  let status = result === undefined
    ? (g.to_move() === state.human ? `Your move (${state.human})` : `The computer (${g.to_move()}) is thinking...`)
    : (result === 'draw' ? 'Draw' : (result === state.human ? `You win (${result})` : `The computer wins (${result})`));
  if (scores) status += ` · X ${scores[0]}, O ${scores[1]}`;
  $('status').textContent = status;
  $('message').textContent = state.message;
  $('notes').textContent = boardNotes(g.board());
  $('moves').textContent = g.moves().join(' ');
}

/// The lines of the text board below its grid: scores, balances, closed boards, whose turn.
function boardNotes(board) {
  const lines = board.split('\n');
  let last = 0;
  lines.forEach((line, i) => { if (/^\s*\d+\s/.test(line)) last = i; });
  return lines.slice(last + 1).join('\n').trim();
}

$('setup').addEventListener('submit', (e) => {
  e.preventDefault();
  newGame($('variant').value, $('side').value);
});
$('undo').addEventListener('click', () => undo());
$('pass').addEventListener('click', () => play('pass'));
$('blacken').addEventListener('change', () => render());

await init();
// A small API for scripts and tests (moves in the rulebook's notation, as `oxo gtp` writes).
window.oxo = {
  newGame,
  play,
  undo,
  nnEval,
  legalMoves: () => state.game.legal_moves(),
  toMove: () => state.game.to_move() ?? null,
  result: () => state.game.result() ?? null,
  score: () => { const s = state.game.scores(); return s ? Array.from(s) : null; },
  moves: () => state.game.moves(),
  human: () => state.human,
  busy: () => state.thinking !== null,
};
const params = new URLSearchParams(location.search);
await newGame(params.get('variant') ?? 'ultimate', params.get('side') ?? 'X');
window.oxo.ready = true;
document.body.dataset.ready = 'true';
