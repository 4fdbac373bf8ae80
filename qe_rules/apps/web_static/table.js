// A seat's page (/seat/TOKEN) or a spectator's (/watch/TABLE): it draws what the server
// sends over server-sent events and posts the seat's moves.
"use strict";
const [, mode, key] = location.pathname.split("/");
const api = `/api/${mode === "seat" ? "seat" : "watch"}/${key}`;
const $ = (id) => document.getElementById(id);
let shown = -1;
let source = null;

function seatList(seats) {
  return seats.length ? seats.map((s) => `seat ${s}`).join(", ") : "nobody";
}

function describe(view) {
  if (view.phase === "over") {
    const winners = view.result.winners;
    if (winners.length === 1) return `The game is over: seat ${winners[0]} won.`;
    if (winners.length === 0) return "The game is over: nobody won.";
    return `The game is over: no single winner (${seatList(winners)} are level).`;
  }
  const waiting = `Waiting for ${seatList(view.to_act)}.`;
  if (mode !== "seat") return waiting;
  if (view.can_peek) return "You may peek at the amount just paid.";
  if (view.limits && view.to_act.includes(view.seat)) {
    if (view.tied.includes(view.seat)) return "You are tied: rebid.";
    if (view.opening_bid === null && view.auctioneer === view.seat) return "Your opening bid.";
    return "Your secret bid.";
  }
  return waiting;
}

function draw(payload) {
  if (payload.version <= shown) return;
  shown = payload.version;
  document.body.dataset.version = String(payload.version);
  const view = payload.view;
  $("picture").innerHTML = payload.picture;
  const who = mode === "seat" ? `seat ${view.seat}` : "spectator";
  $("heading").textContent = `QE · ${view.ruleset} · ${view.players} players · ${who}`;
  document.title = `QE · ${who}`;
  $("status").textContent = describe(view);
  const bidding = mode === "seat" && view.limits !== null && view.phase !== "peeking";
  $("bid").hidden = !bidding;
  if (bidding) {
    const limits = view.limits;
    const amount = $("amount");
    amount.min = String(limits.minimum);
    amount.max = "1000000";
    let suggested = limits.minimum;
    if (suggested === limits.forbidden) suggested += 1;
    amount.value = String(suggested);
    let range = `from ${limits.minimum} to 1000000`;
    if (limits.forbidden !== null) range += `, not ${limits.forbidden}`;
    $("range").textContent = `Legal: ${range}.`;
  }
  const peeking = mode === "seat" && view.can_peek;
  $("peek").hidden = !peeking;
  if (peeking) {
    const last = view.history[view.history.length - 1];
    $("peek-question").textContent =
      `Peek at what seat ${last.winner} paid for ${last.company}?`;
  }
  const log = $("log");
  log.replaceChildren(
    ...payload.log.slice().reverse().map((line) => {
      const item = document.createElement("li");
      item.textContent = line;
      return item;
    }),
  );
  if (payload.record) {
    $("record").href = `${api}/record`;
    $("download").hidden = false;
    if (source) source.close();
  }
}

function showError(message) {
  const box = $("error");
  box.textContent = message;
  box.hidden = !message;
}

async function send(move, body) {
  showError("");
  const response = await fetch(`${api}/${move}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body || {}),
  });
  const payload = await response.json();
  if (!response.ok) {
    showError(payload.error);
    return;
  }
  draw(payload);
}

$("bid").addEventListener("submit", (event) => {
  event.preventDefault();
  const text = $("amount").value.trim();
  if (!/^\d+$/.test(text)) {
    showError("A bid is a whole number.");
    return;
  }
  send("bid", { amount: Number(text) });
});
$("peek-yes").addEventListener("click", () => send("peek"));
$("peek-no").addEventListener("click", () => send("decline-peek"));

source = new EventSource(`${api}/events`);
source.addEventListener("state", (event) => draw(JSON.parse(event.data)));
source.addEventListener("error", () => {
  if (source.readyState === EventSource.CLOSED) $("status").textContent = "Disconnected.";
});
