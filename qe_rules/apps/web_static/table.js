// A seat's page (/seat/TOKEN) or a spectator's (/watch/TABLE): it draws what the server
// sends over server-sent events (every text already in the page's language) and posts
// the seat's moves, each naming the version of the game it answers.
"use strict";
const [, mode, key] = location.pathname.split("/");
const lang = document.documentElement.lang || "en";
const api = `/api/${mode === "seat" ? "seat" : "watch"}/${key}`;
const $ = (id) => document.getElementById(id);
const texts = document.body.dataset;
const MAX_BID = 1000000;
let shown = [-1, -1]; // the version and revision drawn
let source = null;
let last = null;
let receivedAt = 0;
let wasTurn = false;
let bidTurn = null; // the turn to bid the amount box was last emptied for

function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (all, name) => (name in values ? String(values[name]) : all));
}

function seatName(seat) {
  return last && last.names[seat] !== undefined ? last.names[seat] : String(seat + 1);
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

function ownAway(payload) {
  return mode === "seat" && payload.away.some((entry) => entry.seat === payload.view.seat);
}

function drawAway(payload) {
  const box = $("away");
  const items = payload.away.map((entry) => {
    const item = document.createElement("li");
    const own = mode === "seat" && entry.seat === payload.view.seat;
    item.textContent = fill(own ? box.dataset.you : box.dataset.other, { seat: entry.name, agent: entry.agent });
    return item;
  });
  $("away-list").replaceChildren(...items);
  $("come-back").hidden = !ownAway(payload) || payload.record;
  box.hidden = items.length === 0;
  $("leaving").hidden = mode !== "seat" || !payload.person || ownAway(payload) || payload.record;
}

function drawWaiting() {
  // Person seats that kept the table waiting past the limit: the others may hand them over.
  const box = $("waiting");
  if (!last || mode !== "seat" || !last.wait_limit || last.record || ownAway(last)) {
    box.hidden = true;
    return;
  }
  const elapsed = (Date.now() - receivedAt) / 1000;
  const away = new Set(last.away.map((entry) => entry.seat));
  const rows = [];
  for (const [seat, waited] of Object.entries(last.waited || {})) {
    const number = Number(seat);
    const total = waited + elapsed;
    if (number === last.view.seat || away.has(number) || total < last.wait_limit) continue;
    const row = document.createElement("p");
    const long = total >= 120;
    const values = { seat: seatName(number), seconds: Math.floor(total), minutes: Math.floor(total / 60) };
    row.textContent = fill(long ? box.dataset.minutes : box.dataset.seconds, values) + " ";
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = fill(box.dataset.button, { seat: seatName(number) });
    button.addEventListener("click", () => act("hand-over", { seat: number }));
    row.append(button);
    rows.push(row);
  }
  box.replaceChildren(...rows);
  box.hidden = rows.length === 0;
}

function newer(payload) {
  const [version, revision] = shown;
  return payload.version > version || (payload.version === version && payload.revision > revision);
}

function draw(payload, force) {
  if (!force && !newer(payload)) return;
  shown = [payload.version, payload.revision];
  last = payload;
  receivedAt = Date.now();
  document.body.dataset.version = String(payload.version);
  const view = payload.view;
  $("picture").innerHTML = payload.picture;
  $("board").innerHTML = payload.board;
  $("summary").innerHTML = payload.summary;
  $("totals").innerHTML = payload.totals;
  $("heading").textContent = `${texts.tableTitle || "QE"} · ${view.ruleset} · ${view.players} ${texts.players}`;
  $("status").textContent = payload.status;
  signalTurn(payload);
  drawAway(payload);
  const help = payload.bid_help;
  const bidding = mode === "seat" && help !== null && !ownAway(payload);
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
    $("range").textContent = help.range;
  }
  const peeking = mode === "seat" && view.can_peek && !ownAway(payload);
  $("peek").hidden = !peeking;
  if (peeking) {
    // the server words the question as the rule set's peek shows it (the amount paid,
    // the highest bid, every bid)
    $("peek-question").textContent = payload.peek_question || "";
  }
  drawWaiting();
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
  const response = await fetch(`${api}/${path}?lang=${lang}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body || {}),
  });
  return [response, await response.json()];
}

async function refresh() {
  draw(await (await fetch(`${api}/state?lang=${lang}`)).json(), true);
}

async function send(move, body) {
  showError("");
  const [response, payload] = await post(move, { ...(body || {}), version: last ? last.version : null });
  if (!response.ok) {
    showError(payload.error);
    if (response.status === 409) await refresh(); // the game may have moved on: show it
    return;
  }
  draw(payload);
}

async function act(path, body) {
  // leave, come back, hand a waiting seat over: the page then shows what changed
  showError("");
  const [response, answer] = await post(path, body);
  if (!response.ok) {
    showError(answer.error);
    return;
  }
  if (answer.left) {
    if (source) source.close();
    $("act").replaceChildren(Object.assign(document.createElement("p"), { className: "placing", textContent: $("away").dataset.left }));
    return;
  }
  await refresh();
}

$("bid").addEventListener("submit", (event) => {
  event.preventDefault();
  const text = $("amount").value.trim();
  const limits = last && last.view.limits;
  const help = last && last.bid_help;
  if (!/^\d+$/.test(text) || Number(text) > MAX_BID) {
    showError(fill($("error").dataset.whole, { minimum: limits ? limits.minimum : 0, maximum: MAX_BID }));
    return;
  }
  if (limits && help && Number(text) < limits.minimum) {
    showError(help.low);
    return;
  }
  if (limits && help && limits.forbidden !== null && Number(text) === limits.forbidden) {
    showError(help.forbidden);
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
  await refresh();
});
$("leave").addEventListener("click", () => act("leave", { for_good: false }));
$("leave-for-good").addEventListener("click", () => {
  if (window.confirm($("leave-for-good").dataset.confirm)) act("leave", { for_good: true });
});
$("come-back").addEventListener("click", () => act("back"));
$("rematch").addEventListener("click", async () => {
  const [response, answer] = await post("rematch");
  if (!response.ok) showError(answer.error);
  else location.href = `${answer.seat}?lang=${lang}`;
});
$("sound").checked = localStorage.getItem("qe-sound") === "on";
$("sound").addEventListener("change", () => localStorage.setItem("qe-sound", $("sound").checked ? "on" : "off"));
if (mode !== "seat") $("you").hidden = true;
setInterval(drawWaiting, 5000);

source = new EventSource(`${api}/events?lang=${lang}`);
source.addEventListener("state", (event) => draw(JSON.parse(event.data)));
source.addEventListener("error", () => {
  if (source.readyState === EventSource.CLOSED && !(last && last.record)) $("status").textContent = "…";
});
