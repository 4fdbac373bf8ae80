// The host's form (/): one row per seat, a kind (a person or an agent) and a name.
"use strict";
const form = document.getElementById("create");
const texts = JSON.parse(form.dataset.form);
const players = document.getElementById("players");
players.value = form.dataset.players;

function drawSeats() {
  const box = document.getElementById("seats");
  box.querySelectorAll(".seatrow").forEach((row) => row.remove());
  for (let seat = 0; seat < Number(players.value); seat++) {
    const row = document.createElement("div");
    row.className = "seatrow";
    const label = document.createElement("label");
    label.textContent = texts.seat.replace("{seat}", String(seat + 1)) + " ";
    const select = document.createElement("select");
    select.name = `seat${seat}`;
    for (const [kind, text] of texts.kinds) {
      const option = document.createElement("option");
      option.value = kind;
      option.textContent = text;
      select.append(option);
    }
    select.value = seat === 0 ? "person" : "value";
    label.append(select);
    const name = document.createElement("input");
    name.name = `name${seat}`;
    name.maxLength = 24;
    name.placeholder = texts.name;
    name.autocomplete = "off";
    name.setAttribute("aria-label", `${texts.name} ${seat + 1}`);
    row.append(label, name);
    box.append(row);
  }
}
players.addEventListener("change", drawSeats);
drawSeats();
