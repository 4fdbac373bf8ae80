// A seat's page (/seat/TOKEN) or a spectator's (/watch/TABLE): it draws what the server
// sends over server-sent events (every text already in the page's language) and posts
// the seat's moves.
"use strict";
const [, mode, key] = location.pathname.split("/");
const lang = document.documentElement.lang || "en";
const api = `/api/${mode === "seat" ? "seat" : "watch"}/${key}`;
const $ = (id) => document.getElementById(id);
const texts = document.body.dataset;
const MAX_BID = 1000000;
let shown = -1;
let source = null;
let last = null;
let wasTurn = false;
let bidTurn = null; // the turn to bid the amount box was last emptied for

function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (all, name) => (name in values ? String(values[name]) : all));
}

function seatName(seat) {
  return last && last.names[seat] !== undefined ? last.names[seat] : String(seat);
}

function beep() {
  if (!$("sound").checked) return;
  try {
    const audio = new AudioContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 660;
    gain.gain.value = 0.08;
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.18);
  } catch (error) {
    // no audio: the title and the icon still tell
  }
}

function signalTurn(payload) {
  const turn = Boolean(payload.turn);
  const view = payload.view;
  const who = mode === "seat" ? seatName(view.seat) : texts.spectator;
  const table = texts.tableTitle ? ` · ${texts.tableTitle}` : "";
  document.title = turn ? `● ${texts.yourTurn} · QE` : `QE · ${who}${table}`;
  $("favicon").href = turn ? "/static/favicon-turn.svg" : "/static/favicon.svg";
  document.body.classList.toggle("turn", turn);
  if (turn && !wasTurn) beep();
  wasTurn = turn;
}

function applyFilter() {
  const wanted = $("filter").value;
  const own = last && mode === "seat" ? last.view.seat : null;
  for (const item of $("log").children) {
    const kind = item.dataset.kind;
    const seats = item.dataset.seats ? item.dataset.seats.split(",").map(Number) : [];
    let visible = true;
    if (wanted === "mine") visible = own !== null && seats.includes(own);
    else if (wanted !== "all") visible = kind === wanted;
    item.hidden = !visible;
  }
}

function draw(payload) {
  if (payload.version <= shown) return;
  shown = payload.version;
  last = payload;
  document.body.dataset.version = String(payload.version);
  const view = payload.view;
  $("picture").innerHTML = payload.picture;
  $("board").innerHTML = payload.board;
  $("summary").innerHTML = payload.summary;
  $("totals").innerHTML = payload.totals;
  $("heading").textContent = `${texts.tableTitle || "QE"} · ${view.ruleset} · ${view.players} ${texts.players}`;
  $("status").textContent = payload.status;
  signalTurn(payload);
  const bidding = mode === "seat" && view.limits !== null && view.phase !== "peeking";
  $("bid").hidden = !bidding;
  if (bidding) {
    const limits = view.limits;
    const amount = $("amount");
    amount.min = String(limits.minimum);
    amount.max = String(MAX_BID);
    // a new turn to bid starts with an empty box; other updates keep what is typed
    const turn = `${view.sale}:${view.phase}:${view.ties}:${(view.my_bids || []).length}`;
    if (turn !== bidTurn) amount.value = "";
    bidTurn = turn;
    amount.placeholder = String(limits.minimum);
    const values = { minimum: limits.minimum, maximum: MAX_BID, amount: limits.forbidden };
    const range = $("range");
    range.textContent = fill(limits.forbidden === null ? range.dataset.legal : range.dataset.not, values);
  }
  const peeking = mode === "seat" && view.can_peek;
  $("peek").hidden = !peeking;
  if (peeking) {
    const sale = view.history[view.history.length - 1];
    const question = $("peek-question");
    question.textContent = fill(question.dataset.text, { seat: seatName(sale.winner), tile: sale.company });
  }
  const kinds = payload.log_kinds || [];
  const items = payload.log.map((line, index) => {
    const item = document.createElement("li");
    item.textContent = line;
    const [kind, seats] = (kinds[index] || "bid:").split(":");
    item.dataset.kind = kind;
    item.dataset.seats = seats;
    if (kind === "tie") item.className = "tied";
    return item;
  });
  $("log").replaceChildren(...items.reverse());
  applyFilter();
  if (payload.standings) {
    $("standings").innerHTML = payload.standings;
    $("standings").hidden = false;
  }
  if (payload.record) {
    $("record").href = `${api}/record`;
    $("download").hidden = false;
    $("again").hidden = false;
    $("rematch").hidden = mode !== "seat";
    if (mode !== "seat") findNextTable();
    if (source) source.close();
  }
}

async function findNextTable() {
  // A spectator follows the table's rematch once one of the people has started it.
  const answer = await (await fetch(`${api}/rematch`)).json();
  if (answer.watch) {
    $("next-table").href = `${answer.watch}?lang=${lang}`;
    $("next-table").hidden = false;
  } else {
    setTimeout(findNextTable, 5000);
  }
}

function showError(message) {
  const box = $("error");
  box.textContent = message;
  box.hidden = !message;
}

async function post(path, body) {
  const response = await fetch(`${api}/${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body || {}),
  });
  return [response, await response.json()];
}

async function send(move, body) {
  showError("");
  const [response, payload] = await post(`${move}?lang=${lang}`, body);
  if (!response.ok) {
    showError(payload.error);
    return;
  }
  draw(payload);
}

$("bid").addEventListener("submit", (event) => {
  event.preventDefault();
  const text = $("amount").value.trim();
  const limits = last && last.view.limits;
  if (!/^\d+$/.test(text)) {
    showError($("error").dataset.whole);
    return;
  }
  if (limits && Number(text) < limits.minimum) {
    showError(fill($("error").dataset.low, { minimum: limits.minimum }));
    return;
  }
  if (limits && limits.forbidden !== null && Number(text) === limits.forbidden) {
    showError(fill($("error").dataset.forbidden, { amount: limits.forbidden }));
    return;
  }
  send("bid", { amount: Number(text) });
});
$("peek-yes").addEventListener("click", () => send("peek"));
$("peek-no").addEventListener("click", () => send("decline-peek"));
$("filter").addEventListener("change", applyFilter);
$("rename").addEventListener("submit", async (event) => {
  event.preventDefault();
  const [response, answer] = await post("name", { name: $("name").value });
  if (!response.ok) {
    showError(answer.error);
    return;
  }
  showError("");
  shown = -1;
  draw(await (await fetch(`${api}/state?lang=${lang}`)).json());
});
$("rematch").addEventListener("click", async () => {
  const [response, answer] = await post("rematch");
  if (!response.ok) showError(answer.error);
  else location.href = `${answer.seat}?lang=${lang}`;
});
$("sound").checked = localStorage.getItem("qe-sound") === "on";
$("sound").addEventListener("change", () => localStorage.setItem("qe-sound", $("sound").checked ? "on" : "off"));
if (mode !== "seat") $("you").hidden = true;

source = new EventSource(`${api}/events?lang=${lang}`);
source.addEventListener("state", (event) => draw(JSON.parse(event.data)));
source.addEventListener("error", () => {
  if (source.readyState === EventSource.CLOSED && !(last && last.record)) $("status").textContent = "…";
});
